/** Just enough Markdown reading for the documentation tests: fenced blocks, links and heading anchors. */

export interface CodeBlock {
  /** The fence's info string (`bash`, `json`, `ts`, or empty). */
  lang: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The nearest non-blank line above the fence (an HTML comment marks a block for a test). */
  before: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/;

/** Every fenced code block of a document, its lines dedented by the fence's own indentation. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]);
      if (close && close[2][0] === fence[0] && close[2].length >= fence.length && !close[3]) break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    }
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === '') k--;
    blocks.push({ lang, text: body.join('\n'), line: i + 1, before: k >= 0 ? lines[k].trim() : '' });
    i = j;
  }
  return blocks;
}

/** The document's lines outside fenced code blocks, as [1-based line number, text]. */
export function proseLines(markdown: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((line, i) => {
    const m = FENCE.exec(line);
    if (fence === undefined && m) fence = m[2];
    else if (fence !== undefined && m && m[2][0] === fence[0] && m[2].length >= fence.length && !m[3])
      fence = undefined;
    else if (fence === undefined) out.push([i + 1, line]);
  });
  return out;
}

/** Link targets of the prose (inline code spans left out), with their line numbers. */
export function links(markdown: string): Array<{ line: number; target: string }> {
  const found: Array<{ line: number; target: string }> = [];
  for (const [line, text] of proseLines(markdown)) {
    const prose = text.replace(/`+[^`]*`+/g, '');
    for (const m of prose.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      found.push({ line, target: m[1] });
    }
  }
  return found;
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text] of proseLines(markdown)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!m) continue;
    const base = m[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}
