import { csvCell, csvLine } from './csv';

describe('csv', () => {
  it('quotes commas, quotes and line breaks; null is empty; numbers as they are', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', null, 1500])).toBe(
      'a,"b,c","say ""hi""","two\nlines",,1500\r\n',
    );
  });

  it('writes a cell that a spreadsheet would run as a formula as text', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-5)).toBe('-5');
  });
});
