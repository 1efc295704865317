'use strict';

/**
 * A flame graph as a standalone SVG from `.cpuprofile` samples (bench/lib/cpuprofile.js): each box a function
 * on the stack, as wide as the time spent in it and below it, callers underneath; hover a box for its name,
 * file and share. Open it in a browser. Idle time is left out. Widths count samples, not the wall time between
 * them (on a loaded host a process waiting for a core would leave long gaps; see cpuprofile.js byStage).
 */

const WIDTH = 1600;
const ROW = 16;
const MIN_WIDTH = 0.5; // px: narrower boxes are not drawn

const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

function labelOf(frame) {
  const file = frame.url ? frame.url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, '') : '';
  return `${frame.functionName || '(anonymous)'}${file ? ` ${file}:${frame.lineNumber + 1}` : ''}`;
}

/** The samples' stacks merged into one tree of `{ label, us, children: Map }`. */
function mergeStacks(samples) {
  const root = { label: 'all', us: 0, children: new Map() };
  for (const s of samples) {
    if (s.node.callFrame.functionName === '(idle)') continue;
    const stack = [];
    for (let n = s.node; n && n.parent; n = n.parent) stack.push(labelOf(n.callFrame));
    root.us += 1;
    let at = root;
    for (let i = stack.length - 1; i >= 0; i--) {
      let next = at.children.get(stack[i]);
      if (!next) at.children.set(stack[i], (next = { label: stack[i], us: 0, children: new Map() }));
      next.us += 1;
      at = next;
    }
  }
  return root;
}

function colour(label) {
  let h = 0;
  for (let i = 0; i < label.length; i++) h = (h * 31 + label.charCodeAt(i)) >>> 0;
  const app = /apps\/|libs\//.test(label);
  const node = / node:/.test(label) || !/ /.test(label);
  const hue = app ? 20 + (h % 30) : node ? 200 + (h % 30) : 40 + (h % 25);
  return `hsl(${hue},${app ? 85 : 60}%,${60 + (h % 15)}%)`;
}

function flameGraphSvg(samples, title) {
  const root = mergeStacks(samples);
  const boxes = [];
  let depth = 0;
  const scale = root.us ? WIDTH / root.us : 0;
  const walk = (node, x, level) => {
    const w = node.us * scale;
    if (w < MIN_WIDTH) return;
    depth = Math.max(depth, level);
    boxes.push({ node, x, level, w });
    let cx = x;
    for (const child of [...node.children.values()].sort((a, b) => a.label.localeCompare(b.label))) {
      walk(child, cx, level + 1);
      cx += child.us * scale;
    }
  };
  walk(root, 0, 0);
  const height = (depth + 1) * ROW + 40;
  const parts = boxes.map(({ node, x, level, w }) => {
    const y = height - (level + 1) * ROW - 10;
    const share = ((node.us / root.us) * 100).toFixed(2);
    const chars = Math.floor((w - 4) / 7);
    const text = chars > 2 ? escape(node.label.length > chars ? `${node.label.slice(0, chars - 1)}…` : node.label) : '';
    return (
      `<g><title>${escape(node.label)} (${share} %, ${node.us} samples)</title>` +
      `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${ROW - 1}" fill="${colour(node.label)}"/>` +
      (text ? `<text x="${(x + 2).toFixed(1)}" y="${y + ROW - 4}">${text}</text>` : '') +
      '</g>'
    );
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="monospace" font-size="11">`,
    `<text x="4" y="16" font-size="14">${escape(title)}: ${root.us} samples</text>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}

module.exports = { flameGraphSvg, mergeStacks };
