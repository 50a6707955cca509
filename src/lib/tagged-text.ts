// A translated text that marks one part with a tag, such as "by <publisher>{{publisher}}</publisher>",
// split around it so the page can render that part as a link. react-i18next's <Trans> does this
// too, but with an HTML parser every page would download (docs/ARCHITECTURE.md, "Page
// weight").

/** [before, inside, after] the text's `<tag>…</tag>`; the whole text before when it has none. */
export function splitTagged(text: string, tag: string): [string, string, string] {
  const open = `<${tag}>`
  const close = `</${tag}>`
  // The outermost pair: a value interpolated inside may itself contain the tag's text.
  const start = text.indexOf(open)
  const end = text.lastIndexOf(close)
  if (start < 0 || end < start + open.length) return [text, '', '']
  return [
    text.slice(0, start),
    text.slice(start + open.length, end),
    text.slice(end + close.length),
  ]
}
