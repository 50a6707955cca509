// V8's explicit compile hints for the JavaScript every page loads first (Chromium 136+): the
// magic comment `//# allFunctionsCalledOnLoad` at the top of a file has its functions compiled
// on the background thread that streams the script in, instead of one by one on the main thread
// when hydration first calls them. The chunks of pages themselves (webpack's initial chunks) get
// it, and the chunks named here, which every page loads right after: axios, for the refresh after
// load (src/api/mutator.ts names its chunk). Other code loaded on demand is compiled lazily as
// usual. See docs/ARCHITECTURE.md, "Page weight".
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n'
const EAGER_CHUNK_NAMES = new Set(['axios'])

class CompileHintsPlugin {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack
    compiler.hooks.thisCompilation.tap('CompileHintsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        // After minification (which would drop the comment), before the content hashes.
        { name: 'CompileHintsPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1 },
        () => {
          for (const chunk of compilation.chunks) {
            if (!chunk.canBeInitial() && !EAGER_CHUNK_NAMES.has(chunk.name)) continue
            for (const file of chunk.files) {
              if (!file.endsWith('.js')) continue
              compilation.updateAsset(
                file,
                (source) => new sources.ConcatSource(COMPILE_HINT, source),
              )
            }
          }
        },
      )
    })
  }
}

module.exports = { CompileHintsPlugin }
