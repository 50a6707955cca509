// What demo archives carry for the node page's README and licence: a screenshot the README shows
// (a real PNG, drawn here), a long README for one demo node (collapsed on its page), and licence
// files: look-alike texts with each licence's own title and key sentences (not the full texts).
import { deflateSync } from 'node:zlib'
import { crc32 } from '../pipeline/archive'

export const DEMO_SCREENSHOT_PATH = 'docs/screenshot.png'

/** The demo node whose README is long enough to be collapsed. */
export const DEMO_LONG_README_NODE = 'comfyui-demo-upscaler'

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** A 320×120 PNG: a diagonal gradient in the node's own hue (so screenshots differ). */
export function demoScreenshot(seedText: string): Uint8Array {
  const width = 320
  const height = 120
  let hue = 0
  for (const char of seedText) hue = (hue * 31 + char.charCodeAt(0)) % 360
  const rows = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1)
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2
      const at = row + 1 + x * 3
      rows[at] = Math.round(80 + 150 * t + (hue % 60))
      rows[at + 1] = Math.round(60 + 120 * (1 - t))
      rows[at + 2] = Math.round(120 + (hue % 120))
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', new Uint8Array(0)),
  ])
}

/** A long usage section (about 12 kB of markdown) for DEMO_LONG_README_NODE. */
export function longReadmeSection(name: string): string {
  const parts = ['## Usage', '']
  for (let step = 1; step <= 24; step++) {
    parts.push(
      `### Step ${step}`,
      '',
      `Connect the image output of the previous node to **${name}**, choose a model in its ` +
        `settings and queue the prompt. Larger tiles use more memory but leave fewer seams; ` +
        `step ${step} shows how the settings interact on a 1024 px image.`,
      '',
      '```python',
      `# step ${step}: the settings used in the example workflow`,
      `settings = {"tile": ${256 + step * 32}, "overlap": ${8 + step}, "scale": 2}`,
      '```',
      '',
    )
  }
  return parts.join('\n')
}

const MIT = `MIT License

Copyright (c) 2026 {holder}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.
`

const GNU = (title: string, version: string) => `                    ${title}
                       ${version}

 Copyright (C) 2026 {holder}

 (Demo excerpt: the full licence text goes here in a real pack.)
`

/** Licence files by SPDX id ({holder} is replaced). */
const LICENSE_TEXTS: Readonly<Record<string, string>> = {
  MIT,
  'Apache-2.0': `Copyright 2026 {holder}

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
`,
  'GPL-3.0': GNU('GNU GENERAL PUBLIC LICENSE', 'Version 3, 29 June 2007'),
  'AGPL-3.0': GNU('GNU AFFERO GENERAL PUBLIC LICENSE', 'Version 3, 19 November 2007'),
  'LGPL-3.0': GNU('GNU LESSER GENERAL PUBLIC LICENSE', 'Version 3, 29 June 2007'),
  'BSD-3-Clause': `Copyright (c) 2026, {holder}

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:
1. Redistributions of source code must retain the above copyright notice.
2. Redistributions in binary form must reproduce the above copyright notice,
   this list of conditions and the following disclaimer in the documentation.
3. Neither the name of the copyright holder nor the names of its contributors
   may be used to endorse or promote products derived from this software.
`,
  'MPL-2.0': 'Mozilla Public License Version 2.0\n==================================\n',
  Unlicense: 'This is free and unencumbered software released into the public domain.\n',
  'CC-BY-NC-4.0': 'Attribution-NonCommercial 4.0 International\n\n{holder}\n',
}

/** The licence file of a demo pack whose licence is `spdx`, if the demo has a text for it. */
export function demoLicenseText(spdx: string, holder: string): string | undefined {
  return LICENSE_TEXTS[spdx]?.replaceAll('{holder}', holder)
}

/**
 * The `license` field of the first demo nodes in the shapes comfy-cli sends (the others keep
 * their SPDX id): `{"file": "LICENSE"}` (MIT in the file) and `{"text": …}`.
 */
export function demoLicenseField(index: number, spdx: string): string {
  if (index === 1) return '{"file": "LICENSE"}'
  if (index === 2)
    return JSON.stringify({ text: LICENSE_TEXTS['Apache-2.0'].replace('{holder}', 'Demo') })
  return spdx
}
