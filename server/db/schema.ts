/**
 * The registry's database schema: the single source of truth for tables, indexes and enums.
 * SQL migrations in ./migrations are generated from this file with `npx drizzle-kit generate`.
 * The first migration (0000_extensions.sql, hand-written) enables pg_trgm and defines the
 * IMMUTABLE helper `registry_array_to_text(text[])` used by the generated `search_vector` column.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Finding } from '../pipeline/findings'
import { PROVIDERS } from '../proxy/providers'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

/** The text-search configuration used by `nodes.search_vector`; queries must use the same one. */
export const SEARCH_TS_CONFIG = 'english'

/**
 * Chinese, Japanese and Korean letters, as a regular expression for JavaScript and PostgreSQL
 * alike. Those languages write words without spaces, so search finds a word inside a run of them
 * by a substring scan, of the nodes that have such letters only (nodes_cjk_idx).
 */
export const CJK_LETTERS =
  '[\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uac00-\\ud7af]'

export const PUBLISHER_STATUSES = ['PublisherStatusActive', 'PublisherStatusBanned'] as const
export const NODE_STATUSES = ['NodeStatusActive', 'NodeStatusDeleted', 'NodeStatusBanned'] as const
export const NODE_VERSION_STATUSES = [
  'NodeVersionStatusActive',
  'NodeVersionStatusDeleted',
  'NodeVersionStatusBanned',
  'NodeVersionStatusPending',
  'NodeVersionStatusFlagged',
] as const
export const PUBLISHER_MEMBER_ROLES = ['owner', 'member'] as const
/** Where a version is in the publishing pipeline (`PipelineState` in openapi.yml). */
export const PIPELINE_STATES = ['awaiting_upload', 'queued', 'checking', 'done'] as const
export const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const

export type PublisherStatus = (typeof PUBLISHER_STATUSES)[number]
export type NodeStatus = (typeof NODE_STATUSES)[number]
export type NodeVersionStatus = (typeof NODE_VERSION_STATUSES)[number]
export type PublisherMemberRole = (typeof PUBLISHER_MEMBER_ROLES)[number]
export type PipelineState = (typeof PIPELINE_STATES)[number]
export type JobState = (typeof JOB_STATES)[number]

export const publisherStatus = pgEnum('publisher_status', PUBLISHER_STATUSES)
export const nodeStatus = pgEnum('node_status', NODE_STATUSES)
export const nodeVersionStatus = pgEnum('node_version_status', NODE_VERSION_STATUSES)

const tsvector = customType<{ data: string }>({
  dataType() {
    return 'tsvector'
  },
})

/** Bytes (node-postgres gives a Buffer, PGlite a Uint8Array: both come out as a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType() {
    return 'bytea'
  },
  fromDriver(value) {
    return Buffer.isBuffer(value)
      ? value
      : Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  },
})

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

export const users = pgTable('users', {
  /** Firebase uid. */
  id: text('id').primaryKey(),
  email: text('email').notNull().default(''),
  name: text('name').notNull().default(''),
  isAdmin: boolean('is_admin').notNull().default(false),
  isApproved: boolean('is_approved').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

export const publishers = pgTable(
  'publishers',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    website: text('website').notNull().default(''),
    support: text('support').notNull().default(''),
    sourceCodeRepo: text('source_code_repo').notNull().default(''),
    logo: text('logo').notNull().default(''),
    status: publisherStatus('status').notNull().default('PublisherStatusActive'),
    createdAt: createdAt(),
  },
  (t) => [
    check('publishers_id_format', sql`${t.id} ~ '^[a-z][a-z0-9-]*$'`),
    index('publishers_created_at_idx').on(t.createdAt.desc().nullsFirst()),
    // Who is hidden from the public (queries.ts publiclyVisible): every listing and search
    // branch reads the banned publishers, from this index instead of the whole table.
    index('publishers_banned_idx')
      .on(t.id)
      .where(sql`${t.status} = 'PublisherStatusBanned'`),
    // Search's publisher branch: a publisher named as typed (queries.ts textBranches).
    index('publishers_lower_name_idx').on(sql`lower(${t.name})`),
  ],
)

export const publisherMembers = pgTable(
  'publisher_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    publisherId: text('publisher_id')
      .notNull()
      .references(() => publishers.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<PublisherMemberRole>().notNull().default('member'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('publisher_members_publisher_user_idx').on(t.publisherId, t.userId),
    index('publisher_members_user_idx').on(t.userId),
    check('publisher_members_role', sql`${t.role} in ('owner', 'member')`),
  ],
)

export const nodes = pgTable(
  'nodes',
  {
    /** Compared case-insensitively: unique on lower(id). */
    id: text('id').primaryKey(),
    /** Unclaimed nodes belong to the reserved publisher UNCLAIMED_PUBLISHER (src/lib/constants.ts). */
    publisherId: text('publisher_id')
      .notNull()
      .references(() => publishers.id, { onDelete: 'restrict' }),
    name: text('name').notNull().default(''),
    description: text('description').notNull().default(''),
    author: text('author').notNull().default(''),
    license: text('license').notNull().default(''),
    icon: text('icon').notNull().default(''),
    bannerUrl: text('banner_url').notNull().default(''),
    repository: text('repository').notNull().default(''),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    category: text('category').notNull().default(''),
    downloads: bigint('downloads', { mode: 'number' }).notNull().default(0),
    githubStars: integer('github_stars').notNull().default(0),
    rating: doublePrecision('rating').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    status: nodeStatus('status').notNull().default('NodeStatusActive'),
    statusDetail: text('status_detail').notNull().default(''),
    supportedOs: text('supported_os')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    supportedAccelerators: text('supported_accelerators')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    supportedComfyuiVersion: text('supported_comfyui_version').notNull().default(''),
    supportedComfyuiFrontendVersion: text('supported_comfyui_frontend_version')
      .notNull()
      .default(''),
    /** Set by admins only (adminUpdateNode): moderation tags, search hints. */
    tagsAdmin: text('tags_admin')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    searchRanking: integer('search_ranking'),
    preemptedComfyNodeNames: text('preempted_comfy_node_names')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The whole node deprecated by its owners (like `npm deprecate`); message '' otherwise. */
    deprecated: boolean('deprecated').notNull().default(false),
    deprecationMessage: text('deprecation_message').notNull().default(''),
    /** Denormalised: newest Active version by semver; maintained by refreshLatestVersion(). */
    latestVersionId: uuid('latest_version_id'),
    latestVersionCreatedAt: timestamp('latest_version_created_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Weighted full-text document: A = id, name; B = tags, author; C = description. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english'::regconfig, coalesce("id", '') || ' ' || coalesce("name", '')), 'A') || setweight(to_tsvector('english'::regconfig, registry_array_to_text("tags") || ' ' || coalesce("author", '')), 'B') || setweight(to_tsvector('english'::regconfig, coalesce("description", '')), 'C')`,
    ),
  },
  (t) => [
    uniqueIndex('nodes_lower_id_idx').on(sql`lower(${t.id})`),
    foreignKey({
      name: 'nodes_latest_version_id_fk',
      columns: [t.latestVersionId],
      foreignColumns: [nodeVersions.id],
    }).onDelete('set null'),
    index('nodes_publisher_idx').on(t.publisherId),
    index('nodes_latest_version_idx').on(t.latestVersionId),
    index('nodes_search_vector_idx').using('gin', t.searchVector),
    // The words of id and name alone (the search vector's weight A): the start of a word few
    // names have is read here, and the statistics of this expression tell how many have it
    // (server/nodes/name-starts.ts).
    index('nodes_name_words_idx').using(
      'gin',
      sql`to_tsvector('english'::regconfig, coalesce(${t.id}, '') || ' ' || coalesce(${t.name}, ''))`,
    ),
    // Typo tolerance on id and name in one index (searchNodes: `q <% lower(id || ' ' || name)`).
    index('nodes_id_name_trgm_idx').using(
      'gin',
      sql`lower(${t.id} || ' ' || ${t.name}) gin_trgm_ops`,
    ),
    index('nodes_downloads_idx').on(t.downloads.desc().nullsFirst(), t.id),
    // The public listing by downloads read from the index alone (Active nodes; the publisher,
    // for the few banned ones): its whole ordering, its marks and a page after a mark
    // (server/nodes/list-marks.ts).
    index('nodes_public_downloads_idx')
      .on(t.downloads.desc().nullsFirst(), t.id, t.publisherId)
      .where(sql`${t.status} = 'NodeStatusActive'`),
    // Also nodes_public_downloads_search_idx, the same order with the search vector included
    // (search's branches read from the index alone): migration 0026, as drizzle cannot declare
    // INCLUDE columns.

    index('nodes_github_stars_idx').on(t.githubStars.desc().nullsFirst(), t.id),
    index('nodes_created_at_idx').on(t.createdAt.desc().nullsFirst(), t.id),
    index('nodes_latest_version_created_at_idx').on(
      t.latestVersionCreatedAt.desc().nullsLast(),
      t.id,
    ),
    index('nodes_lower_name_idx').on(sql`lower(${t.name})`, t.id),
    index('nodes_tags_idx').using('gin', t.tags),
    // The few nodes with CJK text, most downloaded first (search's CJK branch: queries.ts).
    index('nodes_cjk_idx')
      .on(t.downloads.desc().nullsFirst(), t.id)
      .where(
        sql`${t.name} ~ ${sql.raw(`'${CJK_LETTERS}'`)} or ${t.description} ~ ${sql.raw(`'${CJK_LETTERS}'`)}`,
      ),
    index('nodes_supported_os_idx').using('gin', t.supportedOs),
    index('nodes_supported_accelerators_idx').using('gin', t.supportedAccelerators),
    // Visibility (status + the publisher's ban) answered from the index alone, e.g. for counts.
    index('nodes_status_publisher_idx').on(t.status, t.publisherId),
    // The few nodes the public does not see: "versions of Active nodes" (the review queue and
    // its counts) is asked as "no such node", an anti-join against this small index.
    index('nodes_not_active_idx')
      .on(t.id)
      .where(sql`${t.status} <> 'NodeStatusActive'`),
    index('nodes_repository_trgm_idx').using('gin', sql`lower(${t.repository}) gin_trgm_ops`),
    // One live node per repository, enforced by the database so that concurrent creates cannot
    // both pass (registry_repository_key(): migration 0004, same URL forms as repositoryKey()).
    uniqueIndex('nodes_repository_key_idx')
      .on(sql`registry_repository_key(${t.repository})`)
      .where(sql`${t.status} <> 'NodeStatusDeleted' and ${t.repository} <> ''`),
  ],
)

export const nodeVersions = pgTable(
  'node_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nodeId: text('node_id')
      .notNull()
      .references((): AnyPgColumn => nodes.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    version: text('version').notNull(),
    /**
     * Semver sort key (see semverSortKey()); ordered by versionSemverDesc (ordering.ts). The
     * numbers go up to 2^64 − 1 (20 digits), beyond bigint: numeric(20,0), read as exact text.
     */
    major: numeric('major', { precision: 20, scale: 0 }).notNull().default('0'),
    minor: numeric('minor', { precision: 20, scale: 0 }).notNull().default('0'),
    patch: numeric('patch', { precision: 20, scale: 0 }).notNull().default('0'),
    /** '' for a release version. */
    prerelease: text('prerelease').notNull().default(''),
    /**
     * `prerelease` as a key that orders by semver §11 in the "C" collation: numeric identifiers
     * by value and below alphanumeric ones (registry_prerelease_key(), migration 0018).
     */
    prereleaseKey: text('prerelease_key')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`registry_prerelease_key("prerelease")`),
    changelog: text('changelog').notNull().default(''),
    dependencies: text('dependencies')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Archive location in ArchiveStorage; NULL when there is no archive (yet, or any more). */
    storageKey: text('storage_key'),
    /** Bytes of the stored archive; NULL when unknown (no archive, or stored before sizes were kept). */
    archiveSize: bigint('archive_size', { mode: 'number' }),
    deprecated: boolean('deprecated').notNull().default(false),
    /** Why the version is deprecated and what to use instead; '' when it is not deprecated. */
    deprecationMessage: text('deprecation_message').notNull().default(''),
    status: nodeVersionStatus('status').notNull().default('NodeVersionStatusPending'),
    statusReason: text('status_reason').notNull().default(''),
    comfyNodeExtractStatus: text('comfy_node_extract_status').notNull().default(''),
    comfyNodeExtractReason: text('comfy_node_extract_reason').notNull().default(''),
    /** Versions published before the pipeline existed, and seeded ones, are `done`. */
    pipelineState: text('pipeline_state').$type<PipelineState>().notNull().default('done'),
    /** Everything the archive checks and the scan found at the last scan, worst first. */
    scanFindings: jsonb('scan_findings')
      .$type<Finding[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    scannedAt: timestamp('scanned_at', { withTimezone: true }),
    supportedOs: text('supported_os')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    supportedAccelerators: text('supported_accelerators')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    supportedComfyuiVersion: text('supported_comfyui_version').notNull().default(''),
    supportedComfyuiFrontendVersion: text('supported_comfyui_frontend_version')
      .notNull()
      .default(''),
    downloads: bigint('downloads', { mode: 'number' }).notNull().default(0),
    /** The licence file of the archive (path inside the package), '' when none was found. */
    licenseFile: text('license_file').notNull().default(''),
    /** The SPDX id that file's text matched (src/lib/license-match.ts), '' when none. */
    licenseFileSpdx: text('license_file_spdx').notNull().default(''),
    /** How it was published (openapi.yml VersionProvenance): a token's name, or a workflow run. */
    provenance: jsonb('provenance')
      .$type<VersionProvenance>()
      .notNull()
      .default(sql`'{"method":"unknown"}'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('node_versions_node_version_idx').on(t.nodeId, t.version),
    index('node_versions_status_created_idx').on(t.status, t.createdAt.desc().nullsFirst()),
    index('node_versions_created_at_idx').on(t.createdAt.desc().nullsFirst()),
    // The archives of deleted versions still to remove (maintenance's removeDeletedArchives),
    // found without reading every deleted version.
    index('node_versions_deleted_archives_idx')
      .on(t.id)
      .where(sql`${t.status} = 'NodeVersionStatusDeleted' and ${t.storageKey} is not null`),
    // The admins' review queue (Pending and Flagged, by age) and its counts, from the index
    // alone: node_id is in it for the check that the node is Active.
    index('node_versions_review_queue_idx')
      .on(t.status, t.createdAt, t.id, t.nodeId)
      .where(sql`${t.status} in ('NodeVersionStatusPending', 'NodeVersionStatusFlagged')`),
  ],
)

/**
 * A version's README, read from its archive by the pipeline (server/pipeline/documents.ts): its
 * own table, so the version rows every listing reads (and the row cache keeps) stay small.
 */
export const nodeVersionReadmes = pgTable('node_version_readmes', {
  nodeVersionId: uuid('node_version_id')
    .primaryKey()
    .references(() => nodeVersions.id, { onDelete: 'cascade' }),
  /** Relative to the package root. */
  path: text('path').notNull(),
  format: text('format').$type<'markdown' | 'text'>().notNull(),
  /** At most NODE_VERSION_FILES.maxReadmeBytes of UTF-8. */
  text: text('text').notNull(),
  truncated: boolean('truncated').notNull().default(false),
  /** Images it refers to that the API serves (getNodeVersionFile), relative to the package root. */
  images: text('images')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
})

export type NodeVersionReadme = typeof nodeVersionReadmes.$inferSelect

/**
 * Durable background work (the publishing pipeline), claimed with `for update skip locked` so
 * several API processes sharing one PostgreSQL never run a job twice at once. A running job
 * holds a lease; when its process dies the lease runs out and another worker takes it again.
 * See server/pipeline/jobs.ts.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    /** What the job is about (a version id): one queued or running job per kind and subject. */
    subject: text('subject').notNull(),
    state: text('state').$type<JobState>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error').notNull().default(''),
    /** The id of the API request that queued it: the worker's log lines about it carry it too. */
    requestId: text('request_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('jobs_active_subject_idx')
      .on(t.kind, t.subject)
      .where(sql`${t.state} in ('queued', 'running')`),
    index('jobs_claim_idx').on(t.state, t.runAt),
  ],
)

export const comfyNodes = pgTable(
  'comfy_nodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nodeVersionId: uuid('node_version_id')
      .notNull()
      .references(() => nodeVersions.id, { onDelete: 'cascade' }),
    comfyNodeName: text('comfy_node_name').notNull(),
    displayName: text('display_name').notNull().default(''),
    category: text('category').notNull().default(''),
    description: text('description').notNull().default(''),
    inputTypes: text('input_types').notNull().default(''),
    returnTypes: text('return_types').notNull().default(''),
    returnNames: text('return_names').notNull().default(''),
    outputIsList: boolean('output_is_list')
      .array()
      .notNull()
      .default(sql`'{}'::boolean[]`),
    function: text('function').notNull().default(''),
    deprecated: boolean('deprecated').notNull().default(false),
    experimental: boolean('experimental').notNull().default(false),
  },
  (t) => [
    uniqueIndex('comfy_nodes_version_name_idx').on(t.nodeVersionId, t.comfyNodeName),
    index('comfy_nodes_name_trgm_idx').using('gin', sql`lower(${t.comfyNodeName}) gin_trgm_ops`),
    index('comfy_nodes_name_idx').on(t.comfyNodeName),
    index('comfy_nodes_lower_name_prefix_idx').on(sql`lower(${t.comfyNodeName}) text_pattern_ops`),
  ],
)

/**
 * The query-suggestion index (`GET /nodes/suggest`): one row per way a visitor may start typing a
 * node name or id, a ComfyUI class name of a node's latest version, or a publisher name or id.
 * `term` is the lower-cased label from its start (`is_start`) or from one of its later words
 * ("restore helper" of "Face Restore Helper", "advanced" of "KSamplerAdvanced"), so every
 * suggestion is a prefix lookup on one btree index. Labels and terms are cut at 200 characters. Maintained by triggers (migration 0013), whatever
 * writes the nodes, versions or publishers; who may see a row is decided when asked.
 */
export const suggestionTerms = pgTable(
  'suggestion_terms',
  {
    kind: text('kind').notNull(),
    term: text('term').notNull(),
    isStart: boolean('is_start').notNull(),
    /** What is shown: the node name, class name or publisher name. */
    label: text('label').notNull(),
    /** The node of a `node` or `comfy_node` row. */
    nodeId: text('node_id').references(() => nodes.id, { onDelete: 'cascade' }),
    publisherId: text('publisher_id').references(() => publishers.id, { onDelete: 'cascade' }),
  },
  (t) => [
    // The prefix lookup reads this index alone, in term order (an index-only scan).
    index('suggestion_terms_term_idx').on(
      sql`${t.term} text_pattern_ops`,
      t.isStart,
      t.kind,
      t.label,
      t.nodeId,
      t.publisherId,
    ),
    // Search's misspelt class names (suggest.ts classTypos): class starts alone, in term order.
    index('suggestion_terms_class_start_idx')
      .on(sql`${t.term} text_pattern_ops`, t.nodeId)
      .where(sql`${t.kind} = 'comfy_node' and ${t.isStart}`),
    index('suggestion_terms_node_idx').on(t.nodeId, t.kind),
    index('suggestion_terms_publisher_idx').on(t.publisherId),
    check('suggestion_terms_kind', sql`${t.kind} in ('node', 'comfy_node', 'publisher')`),
  ],
)

/**
 * Every LIST_MARK_EVERY-th node of the public listing's order (server/nodes/list-marks.ts): a
 * deep page without a cached ordering starts from the mark before it instead of skipping every
 * node before it. Made again when the catalogue generation moves or they are old.
 */
export const nodeListMarks = pgTable(
  'node_list_marks',
  {
    sort: text('sort').notNull(),
    position: integer('position').notNull(),
    nodeId: text('node_id').notNull(),
    generation: bigint('generation', { mode: 'number' }).notNull(),
    madeAt: timestamp('made_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sort, t.position] })],
)

/**
 * One row counting the changes that can change which nodes a listing or search shows or their
 * order (except download counts): bumped once per committing transaction by triggers (migration
 * 0013). Cached orderings (server/nodes/ordering-cache.ts) are reused while it stays the same.
 */
export const catalogueGeneration = pgTable(
  'catalogue_generation',
  {
    id: integer('id').primaryKey().default(1),
    generation: bigint('generation', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('catalogue_generation_single_row', sql`${t.id} = 1`)],
)

/**
 * Which node rows changed, in which transaction: one row per inserted, updated or deleted row of
 * `nodes` and `node_versions` (its node) and `publishers` (its publisher), written by triggers
 * (migration 0027), whichever process made the change. An API process keeps node rows in memory
 * (server/nodes/row-cache.ts) and, before answering a page from them, reads what changed since its
 * last read (server/nodes/row-changes.ts). `xid` is the writing transaction's id, comparable
 * with a snapshot's horizon (`pg_snapshot_xmin`). Pruned by maintenance.
 */
export const nodeRowChanges = pgTable(
  'node_row_changes',
  {
    xid: bigint('xid', { mode: 'number' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text)::bigint`),
    nodeId: text('node_id'),
    publisherId: text('publisher_id'),
  },
  (t) => [index('node_row_changes_xid_idx').on(t.xid)],
)

/**
 * Each node's JSON as the public listing shows it, written by the API process that serialized it
 * so that other processes, and ones started later, send it as it is instead of reading and
 * serializing the node's rows again (server/nodes/shared-json.ts). It stands while `stamp` is the
 * node's row stamp and `variant` the reading process's (the code and contract that write it, and
 * the public URL); otherwise the node is serialized again and its JSON replaced. A cache: nothing
 * else reads it, and it may be emptied at any time.
 */
export const nodeJson = pgTable('node_json', {
  nodeId: text('node_id').primaryKey(),
  stamp: text('stamp').notNull(),
  variant: text('variant').notNull(),
  json: text('json').notNull(),
})

/**
 * Pages of the public listing as a process wrote them, shared with the others and with processes
 * started later (server/nodes/shared-pages.ts). `key` names what the page holds: the nodes in
 * order, the total, the page and its size, and the code that writes it. A page stands while no
 * change to its nodes or their publishers is logged from `horizon` on (node_row_changes) and it is
 * younger than a process trusts the log to reach back. A cache, unlogged: it may be emptied at
 * any time.
 */
export const listingPages = pgTable('listing_pages', {
  key: text('key').primaryKey(),
  horizon: bigint('horizon', { mode: 'bigint' }).notNull(),
  writtenAt: timestamp('written_at', { withTimezone: true }).notNull().defaultNow(),
  /** The page's JSON, gzip-compressed: sent as it is to clients that accept gzip. */
  gzip: bytea('gzip').notNull(),
})

/**
 * Snapshot horizons recorded by maintenance, with when: the log of node row changes is pruned up
 * to one recorded long enough ago that no API process still reads from before it.
 */
export const nodeRowChangeHorizons = pgTable('node_row_change_horizons', {
  at: timestamp('at', { withTimezone: true }).primaryKey().defaultNow(),
  horizon: bigint('horizon', { mode: 'number' }).notNull(),
})

/**
 * Pending invitations to join a publisher, by email (accepted by the user who signs in with that
 * address, verified). One per publisher and address; accepted or declined ones are deleted.
 */
export const publisherInvitations = pgTable(
  'publisher_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    publisherId: text('publisher_id')
      .notNull()
      .references(() => publishers.id, { onDelete: 'cascade' }),
    /** Lowercase. */
    email: text('email').notNull(),
    role: text('role').$type<PublisherMemberRole>().notNull().default('member'),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('publisher_invitations_publisher_email_idx').on(t.publisherId, t.email),
    index('publisher_invitations_email_idx').on(t.email),
    check('publisher_invitations_role', sql`${t.role} in ('owner', 'member')`),
    check('publisher_invitations_email_lowercase', sql`${t.email} = lower(${t.email})`),
  ],
)

export const personalAccessTokens = pgTable(
  'personal_access_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    publisherId: text('publisher_id')
      .notNull()
      .references(() => publishers.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    description: text('description').notNull().default(''),
    /** SHA-256 of the full token (the token itself is never stored). */
    tokenHash: text('token_hash').notNull().unique('personal_access_tokens_token_hash_unique'),
    /**
     * The token's non-secret id, written into the token after its prefix
     * ("cr_pat_<publicId>_<secret>"), so a token seen in a log or a list can be told apart.
     */
    publicId: text('public_id')
      .notNull()
      .unique('personal_access_tokens_public_id_unique')
      .default(sql`substr(md5(random()::text), 1, 12)`),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('personal_access_tokens_publisher_idx').on(t.publisherId)],
)

export const nodeReviews = pgTable(
  'node_reviews',
  {
    nodeId: text('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    star: integer('star').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'node_reviews_pk', columns: [t.nodeId, t.userId] }),
    index('node_reviews_user_idx').on(t.userId),
    check('node_reviews_star_range', sql`${t.star} between 1 and 5`),
  ],
)

export const nodeDownloadsDaily = pgTable(
  'node_downloads_daily',
  {
    nodeId: text('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'node_downloads_daily_pk', columns: [t.nodeId, t.day] })],
)

export const pendingUploads = pgTable(
  'pending_uploads',
  {
    /** Random token embedded in the signed upload URL. */
    token: text('token').primaryKey(),
    nodeVersionId: uuid('node_version_id')
      .notNull()
      .references(() => nodeVersions.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    /** The personal access token that published the version: deleting it revokes the link. */
    tokenId: uuid('token_id').references(() => personalAccessTokens.id, { onDelete: 'cascade' }),
    /** Set once the archive is stored; a retry with the same bytes then gets the same answer. */
    uploadedSha256: text('uploaded_sha256'),
    uploadedSize: bigint('uploaded_size', { mode: 'number' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('pending_uploads_node_version_idx').on(t.nodeVersionId),
    index('pending_uploads_token_idx').on(t.tokenId),
    index('pending_uploads_expires_at_idx').on(t.expiresAt),
  ],
)

/** openapi.yml VersionProvenance, as stored on node_versions.provenance. */
export interface VersionProvenance {
  method: 'token' | 'workflow' | 'unknown'
  token_name?: string
  repository?: string
  commit_sha?: string
  workflow_filename?: string
  workflow_ref?: string
  environment?: string
  run_url?: string
}

/**
 * Trusted publishing (server/trusted-publishing/): a GitHub Actions workflow allowed to publish a
 * node. The owner's numeric id is pinned, so a re-created account of the same name never matches.
 */
export const trustedPublishers = pgTable(
  'trusted_publishers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nodeId: text('node_id')
      .notNull()
      .references((): AnyPgColumn => nodes.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    repositoryOwner: text('repository_owner').notNull(),
    repositoryOwnerId: text('repository_owner_id').notNull(),
    repositoryName: text('repository_name').notNull(),
    workflowFilename: text('workflow_filename').notNull(),
    /** '' means any environment. */
    environment: text('environment').notNull().default(''),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull().default(''),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    // GitHub names are case-insensitive: the same workflow twice is one trusted publisher.
    uniqueIndex('trusted_publishers_identity_idx').on(
      t.nodeId,
      sql`lower(${t.repositoryOwner})`,
      sql`lower(${t.repositoryName})`,
      sql`lower(${t.workflowFilename})`,
      sql`lower(${t.environment})`,
    ),
  ],
)

/**
 * Publish tokens minted by the OIDC exchange ("cr_tp_…", only the SHA-256 kept): one node, one
 * publish, minutes. `trusted_publisher_id` becomes NULL when the trusted publisher is removed,
 * which refuses the token with a message saying so.
 */
export const trustedPublishingTokens = pgTable(
  'trusted_publishing_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique('trusted_publishing_tokens_token_hash_unique'),
    nodeId: text('node_id')
      .notNull()
      .references((): AnyPgColumn => nodes.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    publisherId: text('publisher_id')
      .notNull()
      .references(() => publishers.id, { onDelete: 'cascade' }),
    trustedPublisherId: uuid('trusted_publisher_id').references(() => trustedPublishers.id, {
      onDelete: 'set null',
    }),
    /** The OIDC token it was exchanged for. */
    jti: text('jti').notNull(),
    /** What the version records when the token publishes it (method `workflow`). */
    provenance: jsonb('provenance').$type<VersionProvenance>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('trusted_publishing_tokens_trusted_publisher_idx').on(t.trustedPublisherId),
    index('trusted_publishing_tokens_expires_at_idx').on(t.expiresAt),
  ],
)

/** OIDC token ids already exchanged (replays are refused), kept until the OIDC token expires. */
export const trustedPublishingUsedJtis = pgTable(
  'trusted_publishing_used_jtis',
  {
    /** `iss` + ' ' + `jti`: ids are unique per issuer. */
    jti: text('jti').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('trusted_publishing_used_jtis_expires_at_idx').on(t.expiresAt)],
)

export const PUBLISHER_EVENT_KINDS = [
  'trusted_publisher.add',
  'trusted_publisher.remove',
  'token.create',
  'token.delete',
  'version.publish',
] as const
export type PublisherEventKind = (typeof PUBLISHER_EVENT_KINDS)[number]

/** A publisher's audit trail of publishing rights and publishes; rows are never changed. */
export const publisherEvents = pgTable(
  'publisher_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    publisherId: text('publisher_id')
      .notNull()
      .references(() => publishers.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<PublisherEventKind>().notNull(),
    actor: text('actor').notNull(),
    /** Not a foreign key: the trail outlives deleted nodes. '' for publisher-wide events. */
    nodeId: text('node_id').notNull().default(''),
    detail: text('detail').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('publisher_events_publisher_created_idx').on(t.publisherId, t.createdAt.desc(), t.id),
    check(
      'publisher_events_kind',
      sql`${t.kind} in (${sql.raw(PUBLISHER_EVENT_KINDS.map((kind) => `'${kind}'`).join(', '))})`,
    ),
  ],
)

export type TrustedPublisherRow = typeof trustedPublishers.$inferSelect
export type TrustedPublishingToken = typeof trustedPublishingTokens.$inferSelect
export type PublisherEventRow = typeof publisherEvents.$inferSelect

export const ADMIN_ACTION_KINDS = [
  'version.status',
  'node.create',
  'node.update',
  'node.ban',
  'node.unban',
  'publisher.ban',
  'publisher.unban',
  'undo',
] as const
export const ADMIN_SUBJECT_TYPES = ['node_version', 'node', 'publisher'] as const
export type AdminActionKind = (typeof ADMIN_ACTION_KINDS)[number]
export type AdminSubjectType = (typeof ADMIN_SUBJECT_TYPES)[number]

/**
 * The audit log of admin actions (server/admin/audit.ts), written in the same transaction as the
 * change it records. Rows are never changed, except `undone_by` when an action is undone.
 */
export const adminActions = pgTable(
  'admin_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Not a foreign key: the log outlives accounts. */
    actorId: text('actor_id').notNull(),
    actorEmail: text('actor_email').notNull().default(''),
    action: text('action').$type<AdminActionKind>().notNull(),
    subjectType: text('subject_type').$type<AdminSubjectType>().notNull(),
    subjectId: text('subject_id').notNull(),
    /** For people: `node@1.2.0` for a version, else the node or publisher id. */
    subjectLabel: text('subject_label').notNull().default(''),
    fromValue: text('from_value').notNull().default(''),
    toValue: text('to_value').notNull().default(''),
    reason: text('reason').notNull().default(''),
    batchId: uuid('batch_id'),
    /** For an `undo`: the action it reverted. */
    undoes: uuid('undoes'),
    /** The `undo` action that reverted this one. */
    undoneBy: uuid('undone_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('admin_actions_created_at_idx').on(t.createdAt.desc(), t.id),
    index('admin_actions_actor_idx').on(t.actorId, t.createdAt.desc()),
    index('admin_actions_action_idx').on(t.action, t.createdAt.desc()),
    index('admin_actions_subject_idx').on(t.subjectId, t.createdAt.desc()),
    index('admin_actions_batch_idx').on(t.batchId),
    check(
      'admin_actions_action',
      sql`${t.action} in (${sql.raw(ADMIN_ACTION_KINDS.map((kind) => `'${kind}'`).join(', '))})`,
    ),
    check(
      'admin_actions_subject_type',
      sql`${t.subjectType} in ('node_version', 'node', 'publisher')`,
    ),
  ],
)

export type User = typeof users.$inferSelect
export type NewUser = typeof users.$inferInsert
export type Publisher = typeof publishers.$inferSelect
export type NewPublisher = typeof publishers.$inferInsert
export type PublisherMember = typeof publisherMembers.$inferSelect
export type NewPublisherMember = typeof publisherMembers.$inferInsert
export type Node = typeof nodes.$inferSelect
export type NewNode = typeof nodes.$inferInsert
export type NodeVersion = typeof nodeVersions.$inferSelect
export type NewNodeVersion = typeof nodeVersions.$inferInsert
export type ComfyNode = typeof comfyNodes.$inferSelect
export type Job = typeof jobs.$inferSelect
export type NewComfyNode = typeof comfyNodes.$inferInsert
export type PersonalAccessToken = typeof personalAccessTokens.$inferSelect

// ─── Customers: credit accounts of signed-in users (server/customers/) ───

/** A signed-in user's credit account, opened on first use. Money in integer micro-credits. */
export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .unique('customers_user_id_unique')
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Always the sum of the ledger's amounts (customer_events), kept with it in one transaction. */
    balanceMicros: bigint('balance_micros', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('customers_balance_not_negative', sql`${t.balanceMicros} >= 0`)],
)

export const customerEventTypes = [
  'account_created',
  'credit_added',
  'api_usage',
  'refund',
  'adjustment',
  'api_key_created',
  'api_key_deleted',
] as const
export type CustomerEventType = (typeof customerEventTypes)[number]

/** The append-only ledger: every change of a balance, and the account's other events. */
export const customerEvents = pgTable(
  'customer_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    type: text('type', { enum: customerEventTypes }).notNull(),
    /** What the event added to the balance (negative for usage); 0 for events without money. */
    amountMicros: bigint('amount_micros', { mode: 'number' }).notNull().default(0),
    /** The balance the event left. */
    balanceMicros: bigint('balance_micros', { mode: 'number' }).notNull(),
    description: text('description').notNull().default(''),
    /** The admin who recorded it, if one did (kept as history: no foreign key). */
    actorUserId: text('actor_user_id'),
    apiKeyId: uuid('api_key_id'),
    apiKeyName: text('api_key_name'),
    createdAt: createdAt(),
  },
  (t) => [
    index('customer_events_customer_created_idx').on(t.customerId, t.createdAt.desc(), t.id),
    check(
      'customer_events_type_known',
      sql`${t.type} in (${sql.raw(customerEventTypes.map((type) => `'${type}'`).join(', '))})`,
    ),
  ],
)

/** Keys ComfyUI clients send as X-API-KEY; only the hash and a prefix are kept. */
export const customerApiKeys = pgTable(
  'customer_api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** SHA-256 of the whole key. */
    keyHash: text('key_hash').notNull().unique('customer_api_keys_key_hash_unique'),
    /** The key's non-secret beginning ("cr_key_<public id>"), shown in lists. */
    keyPrefix: text('key_prefix').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('customer_api_keys_customer_idx').on(t.customerId, t.createdAt.desc())],
)

/**
 * Every `/proxy/...` lookup, for admins: who asked which provider what, and how it went. By
 * user: a lookup is a read and opens no credit account (the user's account, if any, is theirs).
 */
export const proxyLookups = pgTable(
  'proxy_lookups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: PROVIDERS }).notNull(),
    /** The path and query asked of the provider. */
    path: text('path').notNull(),
    status: integer('status').notNull(),
    outcome: text('outcome', {
      enum: ['answered', 'not_configured', 'timeout', 'unreachable', 'bad_answer'],
    }).notNull(),
    latencyMs: doublePrecision('latency_ms').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('proxy_lookups_created_idx').on(t.createdAt.desc(), t.id),
    index('proxy_lookups_user_idx').on(t.userId, t.createdAt.desc()),
  ],
)

// ─── CI results and releases (server/ci/, server/releases/) ───

/** A commit with CI results: one per repository (any case) and hash. */
export const ciCommits = pgTable(
  'ci_commits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `owner/name` as the CI job sent it. */
    repo: text('repo').notNull(),
    /** lower(repo): repositories compare in any case. */
    repoKey: text('repo_key').notNull(),
    /** Lower-case hex. */
    commitHash: text('commit_hash').notNull(),
    branchName: text('branch_name').notNull(),
    commitMessage: text('commit_message').notNull().default(''),
    author: text('author').notNull().default(''),
    commitTime: timestamp('commit_time', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ci_commits_repo_hash_unique').on(t.repoKey, t.commitHash),
    index('ci_commits_repo_branch_time_idx').on(t.repoKey, t.branchName, t.commitTime.desc(), t.id),
    index('ci_commits_repo_time_idx').on(t.repoKey, t.commitTime.desc(), t.id),
  ],
)

export const ciResultStatuses = ['started', 'completed', 'failed'] as const

/** An output file of a CI job, kept in the archive store under `key`. */
export interface CiOutputFile {
  name: string
  contentType: string
  key: string
  size: number
}

/** One CI job's result (a workflow on one machine) for a commit; re-sent by job id. */
export const ciWorkflowResults = pgTable(
  'ci_workflow_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    commitId: uuid('commit_id')
      .notNull()
      .references(() => ciCommits.id, { onDelete: 'cascade' }),
    jobId: text('job_id').notNull().unique('ci_workflow_results_job_id_unique'),
    runId: text('run_id').notNull().default(''),
    workflowName: text('workflow_name').notNull(),
    operatingSystem: text('operating_system').notNull(),
    gpuType: text('gpu_type').notNull().default(''),
    pythonVersion: text('python_version').notNull().default(''),
    pytorchVersion: text('pytorch_version').notNull().default(''),
    cudaVersion: text('cuda_version').notNull().default(''),
    status: text('status', { enum: ciResultStatuses }).notNull(),
    startTime: timestamp('start_time', { withTimezone: true }),
    endTime: timestamp('end_time', { withTimezone: true }),
    avgVram: integer('avg_vram'),
    peakVram: integer('peak_vram'),
    machineStats: jsonb('machine_stats').$type<Record<string, unknown>>().notNull().default({}),
    outputFiles: jsonb('output_files').$type<CiOutputFile[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('ci_workflow_results_commit_idx').on(t.commitId, t.workflowName, t.operatingSystem),
    check(
      'ci_workflow_results_status_known',
      sql`${t.status} in ('started', 'completed', 'failed')`,
    ),
  ],
)

export const releaseAttentions = ['low', 'medium', 'high'] as const

/** Release notes of ComfyUI and its desktop app and frontend, one per project and version. */
export const releases = pgTable(
  'releases',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    project: text('project').notNull(),
    /** As published, e.g. `v0.3.10`. */
    version: text('version').notNull(),
    attention: text('attention', { enum: releaseAttentions }).notNull().default('low'),
    title: text('title').notNull().default(''),
    /** Markdown, sanitised when shown. */
    content: text('content').notNull().default(''),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    /** GitHub's id of the release it came from (webhook), if it did. */
    githubReleaseId: bigint('github_release_id', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('releases_project_version_unique').on(t.project, t.version),
    index('releases_project_published_idx').on(t.project, t.publishedAt.desc()),
  ],
)

export type CiCommit = typeof ciCommits.$inferSelect
export type CiWorkflowResult = typeof ciWorkflowResults.$inferSelect
export type Release = typeof releases.$inferSelect

export type Customer = typeof customers.$inferSelect
export type CustomerEvent = typeof customerEvents.$inferSelect
export type CustomerApiKey = typeof customerApiKeys.$inferSelect
export type ProxyLookup = typeof proxyLookups.$inferSelect

export type NewPersonalAccessToken = typeof personalAccessTokens.$inferInsert
export type NodeReview = typeof nodeReviews.$inferSelect
export type NewNodeReview = typeof nodeReviews.$inferInsert
export type NodeDownloadsDaily = typeof nodeDownloadsDaily.$inferSelect
export type NewNodeDownloadsDaily = typeof nodeDownloadsDaily.$inferInsert
export type PublisherInvitation = typeof publisherInvitations.$inferSelect
export type PendingUpload = typeof pendingUploads.$inferSelect
export type NewPendingUpload = typeof pendingUploads.$inferInsert
export type AdminActionRow = typeof adminActions.$inferSelect
export type NewAdminAction = typeof adminActions.$inferInsert

/** Columns of `nodes` without the (large, internal) search_vector: use for selects. */
export const nodeColumns = {
  id: nodes.id,
  publisherId: nodes.publisherId,
  name: nodes.name,
  description: nodes.description,
  author: nodes.author,
  license: nodes.license,
  icon: nodes.icon,
  bannerUrl: nodes.bannerUrl,
  repository: nodes.repository,
  tags: nodes.tags,
  category: nodes.category,
  downloads: nodes.downloads,
  githubStars: nodes.githubStars,
  rating: nodes.rating,
  ratingCount: nodes.ratingCount,
  status: nodes.status,
  statusDetail: nodes.statusDetail,
  supportedOs: nodes.supportedOs,
  supportedAccelerators: nodes.supportedAccelerators,
  supportedComfyuiVersion: nodes.supportedComfyuiVersion,
  supportedComfyuiFrontendVersion: nodes.supportedComfyuiFrontendVersion,
  tagsAdmin: nodes.tagsAdmin,
  searchRanking: nodes.searchRanking,
  preemptedComfyNodeNames: nodes.preemptedComfyNodeNames,
  deprecated: nodes.deprecated,
  deprecationMessage: nodes.deprecationMessage,
  latestVersionId: nodes.latestVersionId,
  latestVersionCreatedAt: nodes.latestVersionCreatedAt,
  createdAt: nodes.createdAt,
  updatedAt: nodes.updatedAt,
}
export type NodeRow = Omit<Node, 'searchVector'>
