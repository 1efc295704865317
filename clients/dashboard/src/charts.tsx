import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * Charts drawn as inline SVG at the width they are given (measured, so the text keeps its size on a phone):
 * bars by day, a line by day, bars by label. Colours and sizes are SVG attributes and classes (the page's
 * CSP allows no inline style). Each has an accessible name saying what it shows; each mark has a title.
 */

/** The width of an element, kept up to date. */
export function useWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** A round top for an axis: 1, 2, 2.5 or 5 times a power of ten, at least `max` (1 when nothing is above 0). */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * power >= max) ?? 10;
  return step * power;
}

/** `2028-02-10` → `Feb 10`. */
export function shortDate(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

export interface DayPoint {
  date: string;
  /** null: nothing to show that day (a gap in a line). */
  value: number | null;
}

const HEIGHT = 180;
const PAD = { top: 12, right: 8, bottom: 24, left: 56 };

/** The x labels: first, middle and last day (fewer when they would touch). */
function dayTicks(points: readonly DayPoint[], width: number): number[] {
  const n = points.length;
  if (n === 0) return [];
  const room = Math.floor((width - PAD.left - PAD.right) / 70);
  const count = Math.max(1, Math.min(room, 5, n));
  if (count === 1) return [0];
  return Array.from({ length: count }, (_, i) => Math.round((i * (n - 1)) / (count - 1)));
}

function Axes(props: { width: number; top: number; format: (v: number) => string; points: readonly DayPoint[] }) {
  const { width, top, format, points } = props;
  const plot = HEIGHT - PAD.top - PAD.bottom;
  const step = (width - PAD.left - PAD.right) / Math.max(points.length, 1);
  return (
    <g className="axes">
      {[0, 0.5, 1].map((f) => {
        const y = PAD.top + plot * (1 - f);
        return (
          <g key={f}>
            <line x1={PAD.left} x2={width - PAD.right} y1={y} y2={y} className="grid" />
            <text x={PAD.left - 6} y={y + 4} textAnchor="end" className="tick">
              {format(top * f)}
            </text>
          </g>
        );
      })}
      {dayTicks(points, width).map((i) => (
        <text key={i} x={PAD.left + step * (i + 0.5)} y={HEIGHT - 6} textAnchor="middle" className="tick">
          {shortDate(points[i].date)}
        </text>
      ))}
    </g>
  );
}

/** Bars by day: `label` names the chart, `format` writes an axis value, `full` a bar's title (default `format`). */
export function DayBars(props: {
  label: string;
  points: readonly DayPoint[];
  format: (v: number) => string;
  full?: (v: number) => string;
}) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const { points, format } = props;
  const full = props.full ?? format;
  const top = niceMax(Math.max(0, ...points.map((p) => p.value ?? 0)));
  const plot = HEIGHT - PAD.top - PAD.bottom;
  const step = (width - PAD.left - PAD.right) / Math.max(points.length, 1);
  const bar = Math.max(1, Math.min(step * 0.7, 28));
  return (
    <div ref={ref} className="chart">
      {width > 0 && (
        <svg role="img" aria-label={props.label} width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`}>
          <Axes width={width} top={top} format={format} points={points} />
          {points.map((p, i) => {
            const h = ((p.value ?? 0) / top) * plot;
            return (
              <rect
                key={p.date}
                className="bar"
                x={PAD.left + step * i + (step - bar) / 2}
                y={PAD.top + plot - h}
                width={bar}
                height={Math.max(h, 0)}
              >
                <title>{`${shortDate(p.date)}: ${full(p.value ?? 0)}`}</title>
              </rect>
            );
          })}
        </svg>
      )}
    </div>
  );
}

/** A line by day between 0 and `top`, broken where a day has no value; a dot on each day that has one. */
export function DayLine(props: {
  label: string;
  points: readonly DayPoint[];
  top: number;
  format: (v: number) => string;
}) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const { points, top, format } = props;
  const plot = HEIGHT - PAD.top - PAD.bottom;
  const step = (width - PAD.left - PAD.right) / Math.max(points.length, 1);
  const xy = (i: number, v: number) => [PAD.left + step * (i + 0.5), PAD.top + plot * (1 - v / top)] as const;
  const segments: string[] = [];
  let current = '';
  points.forEach((p, i) => {
    if (p.value === null) {
      if (current) segments.push(current);
      current = '';
      return;
    }
    const [x, y] = xy(i, p.value);
    current += `${current ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`;
  });
  if (current) segments.push(current);
  return (
    <div ref={ref} className="chart">
      {width > 0 && (
        <svg role="img" aria-label={props.label} width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`}>
          <Axes width={width} top={top} format={format} points={points} />
          {segments.map((d) => (
            <path key={d} d={d} className="line" />
          ))}
          {points.map((p, i) => {
            if (p.value === null) return null;
            const [x, y] = xy(i, p.value);
            return (
              <circle key={p.date} cx={x} cy={y} r={3} className="dot">
                <title>{`${shortDate(p.date)}: ${format(p.value)}`}</title>
              </circle>
            );
          })}
        </svg>
      )}
    </div>
  );
}

export interface LabelledValue {
  label: string;
  value: number;
  /** What the row says after its bar (the value, formatted, and anything else). */
  text: string;
}

const ROW = 28;

/** Horizontal bars, one row per label, longest first as given; the bar's length is `value / top`. */
export function LabelBars(props: { label: string; rows: readonly LabelledValue[]; top?: number }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const { rows } = props;
  const top = props.top ?? niceMax(Math.max(0, ...rows.map((r) => r.value)));
  const labelWidth = Math.min(180, width * 0.38);
  const textWidth = Math.min(130, width * 0.3);
  const room = Math.max(width - labelWidth - textWidth - 12, 10);
  const height = rows.length * ROW + 4;
  return (
    <div ref={ref} className="chart">
      {width > 0 && (
        <svg role="img" aria-label={props.label} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
          {rows.map((r, i) => {
            const y = i * ROW + 4;
            const w = (r.value / top) * room;
            return (
              <g key={r.label}>
                <text x={labelWidth - 8} y={y + 15} textAnchor="end" className="label">
                  {r.label.length > 24 ? `${r.label.slice(0, 23)}…` : r.label}
                </text>
                <rect x={labelWidth} y={y + 3} width={Math.max(w, 1)} height={ROW - 10} className="bar" rx={2}>
                  <title>{`${r.label}: ${r.text}`}</title>
                </rect>
                <text x={labelWidth + Math.max(w, 1) + 6} y={y + 15} className="value">
                  {r.text}
                </text>
              </g>
            );
          })}
        </svg>
      )}
    </div>
  );
}
