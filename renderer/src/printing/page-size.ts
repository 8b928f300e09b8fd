/**
 * The printed page: as wide as the paper and as long as the longest document (a thermal roll has no
 * fixed page length). CSS cannot say "auto" for a page's height, so the rule is written here, through
 * a constructed style sheet (allowed by the app's Content-Security-Policy, unlike an inline <style>).
 */
import type { PaperWidth } from '../../../shared/receipt/print-document';

const MM_PER_CSS_PX = 25.4 / 96;
/** Side margins leave the printable width of the paper: 48 mm on 58 mm paper, 72 mm on 80 mm. */
const SIDE_MARGIN_MM: Record<PaperWidth, number> = { 58: 5, 80: 4 };
const TOP_BOTTOM_MM = 3;
let sheet: CSSStyleSheet | null = null;

/** Sets `@page` for the documents in `container` and returns the page height in millimetres. */
export function applyPageSize(container: HTMLElement, paper: PaperWidth): number {
  const tallest = Math.max(0, ...Array.from(container.querySelectorAll<HTMLElement>('.receipt'), (el) => el.offsetHeight));
  const heightMm = Math.min(5_000, Math.max(40, Math.ceil(tallest * MM_PER_CSS_PX) + 2 * TOP_BOTTOM_MM + 2));
  if (!sheet) {
    sheet = new CSSStyleSheet();
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }
  sheet.replaceSync(`@page { size: ${paper}mm ${heightMm}mm; margin: ${TOP_BOTTOM_MM}mm ${SIDE_MARGIN_MM[paper]}mm; }`);
  return heightMm;
}
