import lighthouse from 'lighthouse'
import * as chromeLauncher from 'chrome-launcher'
const url = process.argv[2]
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new','--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync'] })
const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance','best-practices'] })
const a = lhr.audits
const m=a.metrics.details.items[0]; console.log('observed', m.observedFirstContentfulPaint, m.observedLargestContentfulPaint, m.observedDomContentLoaded, m.observedLoad)
console.log('perf', lhr.categories.performance.score, 'FCP', a['first-contentful-paint'].numericValue, 'LCP', a['largest-contentful-paint'].numericValue, 'TBT', a['total-blocking-time'].numericValue, 'SI', a['speed-index'].numericValue)
console.log('LCP element', JSON.stringify(a['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet), JSON.stringify(a['largest-contentful-paint-element']?.details?.items?.[1]?.items))
console.log('console errors', JSON.stringify(a['errors-in-console'].details?.items?.slice(0,5)))
console.log('bootup', JSON.stringify(a['bootup-time'].details?.items?.slice(0,6).map(i=>[i.url,Math.round(i.total),Math.round(i.scripting)])))
console.log('mainthread', JSON.stringify(a['mainthread-work-breakdown'].details?.items?.map(i=>[i.group,Math.round(i.duration)])))
console.log('long tasks', JSON.stringify(a['long-tasks']?.details?.items?.slice(0,8).map(i=>[i.url,Math.round(i.startTime),Math.round(i.duration)])))
console.log('reflow', JSON.stringify(a['forced-reflow-insight']?.details, null, 0)?.slice(0,1500))
console.log('domsize', a['dom-size']?.numericValue, a['dom-size-insight']?.numericValue)
await chrome.kill()
