// Which common licence a licence text is, from phrases only that licence has. The text is
// normalised first (lower case, anything but letters and digits a single space), so line breaks,
// markdown, quotes and "2.0" vs "2 0" do not matter. When several licences' phrases occur (the
// GPL's text names the LGPL and the AGPL; a notice may quote another licence), the one whose
// first phrase comes earliest wins: a licence file starts with its own title or grant.
// Pure, so the API (pipeline and serialiser) and tests share it; the website never imports it.

interface Rule {
  id: string
  /** Alternatives: the rule matches when every phrase of one of them occurs. */
  anyOf: string[][]
  /** The rule does not match when one of these occurs (a close relative). */
  unless?: string[]
}

const GRANT_MIT =
  'permission is hereby granted free of charge to any person obtaining a copy of this software'
const NOTICE_MIT =
  'the above copyright notice and this permission notice shall be included in all copies'
const BSD_GRANT =
  'redistribution and use in source and binary forms with or without modification are permitted provided that the following conditions are met'
const GNU_NOTICE = 'under the terms of the gnu'
const FSF = 'as published by the free software foundation either version'

const RULES: Rule[] = [
  { id: 'MIT', anyOf: [[GRANT_MIT, NOTICE_MIT]] },
  {
    id: 'Apache-2.0',
    anyOf: [
      ['apache license version 2 0', 'terms and conditions for use reproduction and distribution'],
      [
        'licensed under the apache license version 2 0',
        'you may not use this file except in compliance with the license',
      ],
    ],
  },
  {
    id: 'AGPL-3.0',
    anyOf: [
      ['gnu affero general public license version 3 19 november 2007'],
      [`${GNU_NOTICE} affero general public license ${FSF} 3`],
    ],
  },
  {
    id: 'LGPL-3.0',
    anyOf: [
      ['gnu lesser general public license version 3 29 june 2007'],
      [`${GNU_NOTICE} lesser general public license ${FSF} 3`],
    ],
  },
  {
    id: 'LGPL-2.1',
    anyOf: [
      ['gnu lesser general public license version 2 1 february 1999'],
      [`${GNU_NOTICE} lesser general public license ${FSF} 2 1`],
    ],
  },
  {
    id: 'GPL-3.0',
    anyOf: [
      ['gnu general public license version 3 29 june 2007'],
      [`${GNU_NOTICE} general public license ${FSF} 3`],
    ],
  },
  {
    id: 'GPL-2.0',
    anyOf: [
      ['gnu general public license version 2 june 1991'],
      [`${GNU_NOTICE} general public license ${FSF} 2`],
    ],
  },
  {
    id: 'BSD-3-Clause',
    anyOf: [[BSD_GRANT, 'neither the name of']],
    // The four-clause BSD licence (advertising clause) is another licence.
    unless: ['all advertising materials mentioning features or use of this software'],
  },
  {
    id: 'BSD-2-Clause',
    anyOf: [
      [BSD_GRANT, 'this list of conditions and the following disclaimer in the documentation'],
    ],
    unless: [
      'neither the name of',
      'all advertising materials mentioning features or use of this software',
    ],
  },
  { id: 'MPL-2.0', anyOf: [['mozilla public license version 2 0']] },
  {
    id: 'Unlicense',
    anyOf: [['this is free and unencumbered software released into the public domain']],
  },
  { id: 'CC0-1.0', anyOf: [['cc0 1 0 universal']] },
  { id: 'CC-BY-NC-SA-4.0', anyOf: [['attribution noncommercial sharealike 4 0 international']] },
  { id: 'CC-BY-NC-ND-4.0', anyOf: [['attribution noncommercial noderivatives 4 0 international']] },
  { id: 'CC-BY-NC-4.0', anyOf: [['attribution noncommercial 4 0 international']] },
  { id: 'CC-BY-SA-4.0', anyOf: [['attribution sharealike 4 0 international']] },
  { id: 'CC-BY-ND-4.0', anyOf: [['attribution noderivatives 4 0 international']] },
  { id: 'CC-BY-4.0', anyOf: [['creative commons attribution 4 0 international']] },
]

/** Lower case, every run of other characters one space (so phrases match across line breaks). */
export function normaliseLicenseText(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `
}

/** Where the earliest of a rule's complete alternatives starts, or -1 when none is complete. */
function firstMatch(rule: Rule, text: string): number {
  if (rule.unless?.some((phrase) => text.includes(` ${phrase} `))) return -1
  let best = -1
  for (const phrases of rule.anyOf) {
    const at = phrases.map((phrase) => text.indexOf(` ${phrase} `))
    if (at.some((position) => position < 0)) continue
    const start = Math.min(...at)
    if (best < 0 || start < best) best = start
  }
  return best
}

/** Texts longer than this are read only this far (a licence states itself at the start). */
const MAX_MATCHED_CHARS = 64 * 1024

/** The SPDX identifier of a licence text, or undefined when it is none of the known ones. */
export function matchLicense(text: string): string | undefined {
  const normalised = normaliseLicenseText(text.slice(0, MAX_MATCHED_CHARS))
  let found: { id: string; at: number } | undefined
  for (const rule of RULES) {
    const at = firstMatch(rule, normalised)
    if (at >= 0 && (!found || at < found.at)) found = { id: rule.id, at }
  }
  return found?.id
}
