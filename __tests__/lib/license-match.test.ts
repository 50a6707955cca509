import { matchLicense } from '@/src/lib/license-match'
import {
  licenseName,
  linkedDataLicense,
  parseLicenseField,
  spdxExpression,
  spdxUrl,
} from '@/src/lib/licenses'

// Look-alike licence files: each licence's own title and distinctive sentences, wrapped and
// punctuated the way real files are, with a project's copyright line around them.
const MIT = `MIT License

Copyright (c) 2024 Example Author

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction...

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.`

const APACHE = `
                                 Apache License
                           Version 2.0, January 2004
                        http://www.apache.org/licenses/

   TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION

   1. Definitions.`

const APACHE_NOTICE = `Copyright 2024 Someone

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.`

const GPL3 = `                    GNU GENERAL PUBLIC LICENSE
                       Version 3, 29 June 2007

 Copyright (C) 2007 Free Software Foundation, Inc.
 ... use the GNU Lesser General Public License instead of this License.
 ... 13. Use with the GNU Affero General Public License.`

const GPL2 = `		    GNU GENERAL PUBLIC LICENSE
		       Version 2, June 1991

 Copyright (C) 1989, 1991 Free Software Foundation, Inc.`

const AGPL3 = `                    GNU AFFERO GENERAL PUBLIC LICENSE
                       Version 3, 19 November 2007
  ... the GNU General Public License ...`

const LGPL3 = `                   GNU LESSER GENERAL PUBLIC LICENSE
                       Version 3, 29 June 2007

  This version of the GNU Lesser General Public License incorporates
the terms and conditions of version 3 of the GNU General Public
License, supplemented by the additional permissions listed below.`

const LGPL21 = `                  GNU LESSER GENERAL PUBLIC LICENSE
                       Version 2.1, February 1999`

const GPL3_NOTICE = `This program is free software: you can redistribute it and/or modify
it under the terms of the GNU General Public License as published by
the Free Software Foundation, either version 3 of the License, or
(at your option) any later version.`

const BSD_HEAD = `Copyright (c) 2024, Example
All rights reserved.

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice, this
   list of conditions and the following disclaimer.

2. Redistributions in binary form must reproduce the above copyright notice,
   this list of conditions and the following disclaimer in the documentation
   and/or other materials provided with the distribution.
`
const BSD3 = `${BSD_HEAD}
3. Neither the name of the copyright holder nor the names of its
   contributors may be used to endorse or promote products derived from
   this software without specific prior written permission.`
const BSD4 = `${BSD3}
4. All advertising materials mentioning features or use of this software
   must display the following acknowledgement.`

const MPL = `Mozilla Public License Version 2.0
==================================

1. Definitions`

const UNLICENSE = `This is free and unencumbered software released into the public domain.

Anyone is free to copy, modify, publish, use, compile, sell, or distribute this software.`

const CC0 = `Creative Commons Legal Code

CC0 1.0 Universal

    CREATIVE COMMONS CORPORATION IS NOT A LAW FIRM`

const cc = (kind: string) =>
  `${kind} 4.0 International\n\n=======================================================================\n\nCreative Commons Corporation ("Creative Commons") is not a law firm`

describe('matchLicense', () => {
  it.each([
    ['MIT', MIT],
    ['Apache-2.0', APACHE],
    ['Apache-2.0', APACHE_NOTICE],
    ['GPL-3.0', GPL3],
    ['GPL-3.0', GPL3_NOTICE],
    ['GPL-2.0', GPL2],
    ['AGPL-3.0', AGPL3],
    ['LGPL-3.0', LGPL3],
    ['LGPL-2.1', LGPL21],
    ['BSD-3-Clause', BSD3],
    ['BSD-2-Clause', BSD_HEAD],
    ['MPL-2.0', MPL],
    ['Unlicense', UNLICENSE],
    ['CC0-1.0', CC0],
    ['CC-BY-4.0', `Creative Commons Attribution 4.0 International Public License`],
    ['CC-BY-SA-4.0', cc('Attribution-ShareAlike')],
    ['CC-BY-NC-4.0', cc('Attribution-NonCommercial')],
    ['CC-BY-NC-SA-4.0', cc('Attribution-NonCommercial-ShareAlike')],
    ['CC-BY-NC-ND-4.0', cc('Attribution-NonCommercial-NoDerivatives')],
  ])('recognises %s', (id, text) => {
    expect(matchLicense(text)).toBe(id)
  })

  it('ignores case, line breaks and markdown', () => {
    expect(matchLicense(MIT.toUpperCase().replace(/ /g, '\n'))).toBe('MIT')
    expect(matchLicense(`# ${MIT.replace('free of charge', '**free of charge**')}`)).toBe('MIT')
  })

  it.each([
    ['the MIT grant without its notice condition (MIT-0)', MIT.split('The above')[0]],
    ['the four-clause BSD licence', BSD4],
    ['Apache 1.1', 'Apache License, Version 1.1\n\nRedistribution and use...'],
    ['a proprietary notice', 'Copyright 2024 Example. All rights reserved.'],
    ['GNU GPL named without a version', 'Licensed under the GNU General Public License.'],
    ['CC BY 3.0', cc('Attribution').replace('4.0', '3.0')],
    ['an empty file', ''],
  ])('does not claim %s', (_name, text) => {
    expect(matchLicense(text)).toBeUndefined()
  })

  it('takes the licence whose phrase comes first', () => {
    expect(matchLicense(`${MIT}\n\nThird-party code:\n${APACHE}`)).toBe('MIT')
    expect(matchLicense(`${GPL3}\n${LGPL3}`)).toBe('GPL-3.0')
  })
})

describe('parseLicenseField', () => {
  it('reads SPDX identifiers in any case, common spellings and expressions', () => {
    expect(parseLicenseField('MIT')).toEqual({ kind: 'spdx', id: 'MIT' })
    expect(parseLicenseField('apache-2.0')).toEqual({ kind: 'spdx', id: 'Apache-2.0' })
    expect(parseLicenseField('GPLv3')).toEqual({ kind: 'spdx', id: 'GPL-3.0' })
    expect(parseLicenseField('MIT or Apache-2.0')).toEqual({
      kind: 'spdx',
      id: 'MIT OR Apache-2.0',
    })
    expect(spdxExpression('MIT OR')).toBeUndefined()
    expect(spdxExpression('MIT XOR GPL-3.0')).toBeUndefined()
  })

  it('reads the pyproject table comfy-cli sends as JSON text', () => {
    expect(parseLicenseField('{"file": "LICENSE"}')).toEqual({ kind: 'file', path: 'LICENSE' })
    expect(parseLicenseField('{"text": "MIT"}')).toEqual({ kind: 'spdx', id: 'MIT' })
    expect(parseLicenseField(`{"text": ${JSON.stringify(MIT)}}`)).toEqual({
      kind: 'text',
      text: MIT,
    })
    expect(parseLicenseField('{}')).toEqual({ kind: 'none' })
  })

  it('keeps anything else as written', () => {
    expect(parseLicenseField('')).toEqual({ kind: 'none' })
    expect(parseLicenseField('See LICENSE')).toEqual({ kind: 'other', value: 'See LICENSE' })
    expect(parseLicenseField('{not json')).toEqual({ kind: 'other', value: '{not json' })
  })

  it('names known identifiers and links to SPDX', () => {
    expect(licenseName('Apache-2.0')).toBe('Apache License 2.0')
    expect(licenseName('MIT OR Apache-2.0')).toBe('MIT OR Apache-2.0')
    expect(spdxUrl('MIT')).toBe('https://spdx.org/licenses/MIT.html')
    expect(spdxUrl('MIT OR Apache-2.0')).toBeUndefined()
  })
})

describe('linkedDataLicense', () => {
  it('gives the SPDX page of the derived or written identifier', () => {
    expect(linkedDataLicense('{"file": "LICENSE"}', 'MIT')).toBe(
      'https://spdx.org/licenses/MIT.html',
    )
    expect(linkedDataLicense('Apache-2.0', undefined)).toBe(
      'https://spdx.org/licenses/Apache-2.0.html',
    )
  })

  it('keeps plain words and never gives the JSON table', () => {
    expect(linkedDataLicense('Free for personal use', undefined)).toBe('Free for personal use')
    expect(linkedDataLicense('{"file": "LICENSE"}', undefined)).toBeUndefined()
    expect(linkedDataLicense('{"text": "All rights reserved"}', undefined)).toBeUndefined()
    expect(linkedDataLicense('', undefined)).toBeUndefined()
  })
})
