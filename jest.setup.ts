import '@testing-library/jest-dom'

// jsdom has no user-agent styles: it reports `display: ''` for a <wbr>, and accessible names then
// put a space around it ("my-<wbr>node" named "my- node"). Browsers show a <wbr> inline and name
// it as nothing; the line-break hints of components/common/BreakableText.tsx rely on that.
// (Suites with `@jest-environment node` have no document.)
if (typeof document !== 'undefined') {
  const wbrStyle = document.createElement('style')
  wbrStyle.textContent = 'wbr { display: inline; }'
  document.head.appendChild(wbrStyle)
}
