/** The page sizes of a PDF Chromium printed (each page object's /MediaBox, in points), in millimetres. */
const MM_PER_POINT = 25.4 / 72;

export function pdfPages(pdf: Buffer): Array<{ widthMm: number; heightMm: number }> {
  const boxes = [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]/g)];
  return boxes.map(([, x0, y0, x1, y1]) => ({
    widthMm: (Number(x1) - Number(x0)) * MM_PER_POINT,
    heightMm: (Number(y1) - Number(y0)) * MM_PER_POINT,
  }));
}
