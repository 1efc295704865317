/** A pino destination that keeps every line, for assertions on what an app logged. */
export class LogCapture {
  readonly lines: string[] = [];

  write(chunk: string): void {
    this.lines.push(...chunk.split('\n').filter(Boolean));
  }

  json(): Array<Record<string, unknown>> {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  text(): string {
    return this.lines.join('\n');
  }
}
