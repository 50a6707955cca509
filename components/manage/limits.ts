// The contract's field limits the owners' forms check before sending, taken from openapi.yml
// through Orval's generated rules (src/api/generated/rules.zod.ts), never typed again here.
export {
  addPublisherMemberBodyEmailMax as EMAIL_MAX_LENGTH,
  createPersonalAccessTokenBodyNameMax as TOKEN_NAME_MAX_LENGTH,
  createPublisherBodyIdMax as PUBLISHER_ID_MAX_LENGTH,
  updateNodeBodyDescriptionMax as DESCRIPTION_MAX_LENGTH,
  updateNodeBodyNameMax as NAME_MAX_LENGTH,
  updateNodeBodyRepositoryMax as URL_MAX_LENGTH,
  updateNodeBodyTagsItemMax as NODE_TAG_MAX_LENGTH,
  updateNodeBodyTagsMax as NODE_TAGS_MAX,
  updateNodeVersionBodyChangelogMax as CHANGELOG_MAX_LENGTH,
  updateNodeVersionBodyDeprecationMessageMax as DEPRECATION_MESSAGE_MAX_LENGTH,
} from '@/src/api/generated/rules.zod'
