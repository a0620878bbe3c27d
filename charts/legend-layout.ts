// Where a wrapping (plain) ECharts legend ends, from its entries' text widths, so the interactive page can show every
// entry instead of paging them behind a "1/2" pager: the browser measures the texts in the page's own font and the
// plot moves below the last row. Shipped to the page as source (`wrappedLegendBottom.toString()`, charts/html-page.ts),
// so it is one self-contained function: no helpers, no closures (a bundler would wrap those in its own names).

/**
 * The legend's bottom edge (pixels from the chart's top) for entries of `textWidths` laid out from `top` in rows of
 * at most `available` pixels. ECharts' defaults: a 25-px icon, 5 px to the text, 10 px between entries and between
 * rows; a row is taken as 16 px high (12-px text), a little more than ECharts draws, so the plot never overlaps it.
 */
export function wrappedLegendBottom(textWidths: number[], available: number, top: number): number {
  let rows = 1;
  let x = 0;
  for (let i = 0; i < textWidths.length; i++) {
    const width = 25 + 5 + textWidths[i];
    if (x > 0 && x + width > available) {
      rows++;
      x = 0;
    }
    x += width + 10;
  }
  return top + rows * 16 + (rows - 1) * 10;
}
