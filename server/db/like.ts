/** `text` matched literally inside a LIKE pattern: its `\`, `%` and `_` escaped. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (match) => `\\${match}`)
