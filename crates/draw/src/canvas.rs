//! The canvas: the map drawn at a scale inside a margin, in layers, and a footer under it with
//! the caption, the legend (a swatch for each kind present, nothing else) and the numbered key.

use std::fmt::{self, Write};

use super::labels::{Labels, Rect, text_width};
use super::style;
pub use super::xml::{N, esc};
use arbiter_contract::render::Lang;

/// The layers of a drawing, bottom first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// Terrain fills and patterns.
    Terrain,
    /// Bright, dim and dark overlays, light sources.
    Light,
    /// Grid lines.
    Grid,
    /// Highlighted squares (target, blockers, reach, threatened squares).
    Highlight,
    /// Thin walls.
    Walls,
    /// Creatures' tokens.
    Tokens,
    /// The question's lines and paths.
    Lines,
    /// Markers on top of the lines.
    Marks,
}

const LAYERS: [(Layer, &str); 8] = [
    (Layer::Terrain, "terrain"),
    (Layer::Light, "light"),
    (Layer::Grid, "grid"),
    (Layer::Highlight, "highlight"),
    (Layer::Walls, "walls"),
    (Layer::Tokens, "tokens"),
    (Layer::Lines, "lines"),
    (Layer::Marks, "marks"),
];

/// A legend swatch: what the kind looks like on the map.
#[derive(Debug, Clone)]
pub enum Swatch {
    /// A filled square (`pattern`: a `<pattern>` id over the fill).
    Fill { fill: &'static str, pattern: &'static str, opacity: f64 },
    /// A square outline.
    Outline { stroke: &'static str, dash: &'static str },
    /// A line segment.
    Line { stroke: &'static str, width: f64, dash: String },
    /// A dot.
    Dot { fill: &'static str },
    /// A cross (a hit point).
    Cross,
    /// A ring.
    Ring { stroke: &'static str },
}

/// The language's text of a legend, key or caption (French typography applied).
pub fn localise(text: &str, lang: Lang) -> String {
    match lang {
        Lang::En => text.to_owned(),
        Lang::Fr => arbiter_contract::lang::french_typography(text),
    }
}

/// Picks the text of the language.
pub fn tr(lang: Lang, en: &str, fr: &str) -> String {
    localise(if lang == Lang::En { en } else { fr }, lang)
}

/// A drawing being made.
pub struct Canvas {
    /// Pixels per square.
    pub scale: f64,
    /// Pixels around the map.
    pub margin: f64,
    cols: i32,
    rows: i32,
    /// The width of the whole drawing.
    pub width: f64,
    layers: [String; 8],
    /// The labels.
    pub labels: Labels,
    legend: Vec<(String, Swatch, String)>,
    caption: Vec<(String, bool)>,
    table: Option<Table>,
    /// The language of the texts.
    pub lang: Lang,
}

/// A table under the caption (`/v1/analyze`'s matrix): column heads, and rows of a head and
/// cells.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// The column heads.
    pub columns: Vec<String>,
    /// Each row: its head and its cells.
    pub rows: Vec<(String, Vec<Cell>)>,
}

/// One cell of a [`Table`].
#[derive(Debug, Clone)]
pub struct Cell {
    /// The text.
    pub text: String,
    /// The fill.
    pub fill: &'static str,
    /// Attributes of the cell's `<g>` (`class="pair" data-…`), already escaped.
    pub attrs: String,
}

/// The narrowest drawing: room for a caption.
const MIN_WIDTH: f64 = 360.0;
const CAPTION_FONT: f64 = 14.0;
const LEGEND_FONT: f64 = 12.0;
const ROW: f64 = 20.0;

impl Canvas {
    /// A canvas for a `cols`×`rows` map at `scale` px a square.
    pub fn new(cols: i32, rows: i32, scale: f64, lang: Lang) -> Canvas {
        let (cols, rows) = (cols.max(1), rows.max(1));
        let margin = (scale * 0.6).max(24.0);
        let map_w = f64::from(cols) * scale + 2.0 * margin;
        let width = map_w.max(MIN_WIDTH);
        let map_h = f64::from(rows) * scale + 2.0 * margin;
        Canvas {
            scale,
            margin,
            cols,
            rows,
            width,
            layers: Default::default(),
            labels: Labels::new(Rect::new(0.0, 0.0, width, map_h)),
            legend: Vec::new(),
            caption: Vec::new(),
            table: None,
            lang,
        }
    }

    /// The x of a grid abscissa (squares).
    pub fn x(&self, gx: f64) -> f64 {
        self.margin + gx * self.scale
    }

    /// The y of a grid ordinate (squares).
    pub fn y(&self, gy: f64) -> f64 {
        self.margin + gy * self.scale
    }

    /// The box of `side`×`side` squares from (`gx`, `gy`).
    pub fn square(&self, gx: i32, gy: i32, side: i32) -> Rect {
        let s = f64::from(side) * self.scale;
        Rect::new(self.x(f64::from(gx)), self.y(f64::from(gy)), s, s)
    }

    /// The text of the language.
    pub fn tr(&self, en: &str, fr: &str) -> String {
        tr(self.lang, en, fr)
    }

    /// The layer's buffer.
    pub fn layer(&mut self, l: Layer) -> &mut String {
        let i = LAYERS.iter().position(|(k, _)| *k == l).unwrap_or(0);
        &mut self.layers[i]
    }

    /// Writes to a layer.
    pub fn put(&mut self, l: Layer, args: fmt::Arguments<'_>) {
        let _ = self.layer(l).write_fmt(args);
    }

    /// A font size for labels on the map.
    pub fn label_font(&self) -> f64 {
        (self.scale * 0.3).clamp(9.0, 13.0)
    }

    /// Adds a legend entry for `kind` (once; the first text wins).
    pub fn legend(&mut self, kind: &str, swatch: Swatch, text: String) {
        if !self.legend.iter().any(|(k, ..)| k == kind) {
            let text = localise(&text, self.lang);
            self.legend.push((kind.to_owned(), swatch, text));
        }
    }

    /// Adds a caption line (the first is the drawing's title).
    pub fn caption(&mut self, text: String) {
        let first = self.caption.is_empty();
        self.caption.push((localise(&text, self.lang), first));
    }

    /// Sets the table drawn under the caption.
    pub fn table(&mut self, t: Table) {
        self.table = Some(t);
    }

    /// The whole document.
    pub fn finish(mut self) -> String {
        let map_h = f64::from(self.rows) * self.scale + 2.0 * self.margin;
        let pad = 10.0;
        let inner = self.width - 2.0 * pad;
        let mut footer = String::new();
        let mut y = map_h;
        let title = self.caption.first().map(|(t, _)| t.clone()).unwrap_or_default();
        footer.push_str(r#"<g class="caption">"#);
        for (text, bold) in &self.caption {
            let font = if *bold { CAPTION_FONT + 1.0 } else { CAPTION_FONT };
            for line in wrap(text, font, inner) {
                y += font * 1.45;
                let _ = write!(
                    footer,
                    r##"<text x="{}" y="{}" font-size="{}" font-weight="{}" fill="#111111">{}</text>"##,
                    N(pad),
                    N(y),
                    N(font),
                    if *bold { "bold" } else { "normal" },
                    esc(&line)
                );
            }
        }
        footer.push_str("</g>");
        y += 8.0;
        if let Some(t) = self.table.take() {
            let (bottom, right) = write_table(&mut footer, &t, y, pad);
            y = bottom;
            self.width = self.width.max(right + pad);
        }
        y = self.write_legend(&mut footer, y, pad, inner);
        y = self.write_key(&mut footer, y, pad, inner);
        let height = y + pad;
        let mut s =
            String::with_capacity(footer.len() + self.layers.iter().map(String::len).sum::<usize>() + 4096);
        let _ = write!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Verdana, sans-serif" class="arbiter-drawing" data-scale="{}" data-margin="{}">"#,
            N(self.scale),
            N(self.margin),
            w = N(self.width),
            h = N(height)
        );
        let _ = write!(s, "<title>{}</title>", esc(&title));
        s.push_str(style::DEFS);
        let _ = write!(
            s,
            r##"<rect x="0" y="0" width="{}" height="{}" fill="#FFFFFF"/>"##,
            N(self.width),
            N(height)
        );
        let frame = self.square(0, 0, 1);
        let _ = write!(
            s,
            r##"<rect class="grid-frame" x="{}" y="{}" width="{}" height="{}" fill="#FCFBF8" stroke="#555555" stroke-width="1"/>"##,
            N(frame.x),
            N(frame.y),
            N(f64::from(self.cols) * self.scale),
            N(f64::from(self.rows) * self.scale)
        );
        // Light radii and outlines stop at the map's edge.
        let _ = write!(
            s,
            r#"<clipPath id="map-clip"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>"#,
            N(frame.x),
            N(frame.y),
            N(f64::from(self.cols) * self.scale),
            N(f64::from(self.rows) * self.scale)
        );
        for ((layer, name), body) in LAYERS.iter().zip(&self.layers) {
            if !body.is_empty() {
                let clip = if matches!(layer, Layer::Light | Layer::Highlight) {
                    r#" clip-path="url(#map-clip)""#
                } else {
                    ""
                };
                let _ = write!(s, r#"<g class="layer-{name}"{clip}>{body}</g>"#);
            }
        }
        let _ = write!(s, r#"<g class="labels">{}</g>"#, self.labels.svg());
        s.push_str(&footer);
        s.push_str("</svg>");
        s
    }

    /// The swatches, flowing in rows; returns the y under them.
    fn write_legend(&self, out: &mut String, mut y: f64, pad: f64, inner: f64) -> f64 {
        if self.legend.is_empty() {
            return y;
        }
        out.push_str(r#"<g class="legend">"#);
        let mut x = pad;
        y += 4.0;
        for (kind, swatch, text) in &self.legend {
            let w = 26.0 + text_width(text, LEGEND_FONT) + 14.0;
            if x > pad && x + w > pad + inner {
                x = pad;
                y += ROW;
            }
            let _ = write!(out, r#"<g class="legend-item" data-kind="{}">"#, esc(kind));
            swatch_svg(out, swatch, x, y);
            let _ = write!(
                out,
                r##"<text x="{}" y="{}" font-size="{}" fill="#222222">{}</text></g>"##,
                N(x + 24.0),
                N(y + 12.5),
                N(LEGEND_FONT),
                esc(text)
            );
            x += w;
        }
        out.push_str("</g>");
        y + ROW
    }

    /// The numbered key of labels that did not fit; returns the y under it.
    fn write_key(&self, out: &mut String, mut y: f64, pad: f64, inner: f64) -> f64 {
        if self.labels.key.is_empty() {
            return y;
        }
        out.push_str(r#"<g class="key">"#);
        let mut x = pad;
        y += 4.0;
        for entry in &self.labels.key {
            let entry = localise(entry, self.lang);
            let w = text_width(&entry, LEGEND_FONT) + 18.0;
            if x > pad && x + w > pad + inner {
                x = pad;
                y += ROW;
            }
            let _ = write!(
                out,
                r##"<text class="key-entry" x="{}" y="{}" font-size="{}" fill="#222222">{}</text>"##,
                N(x),
                N(y + 12.5),
                N(LEGEND_FONT),
                esc(&entry)
            );
            x += w;
        }
        out.push_str("</g>");
        y + ROW
    }
}

/// Draws `t` from (`x`, `y`); returns its bottom and right edges.
fn write_table(out: &mut String, t: &Table, y: f64, x: f64) -> (f64, f64) {
    let font = LEGEND_FONT;
    let (h, cell_pad) = (font * 1.8, 10.0);
    let head_w = t.rows.iter().map(|(r, _)| text_width(r, font)).fold(0.0, f64::max) + cell_pad;
    let mut widths: Vec<f64> = t.columns.iter().map(|c| text_width(c, font) + cell_pad).collect();
    for (_, cells) in &t.rows {
        for (w, cell) in widths.iter_mut().zip(cells) {
            *w = w.max(text_width(&cell.text, font) + cell_pad);
        }
    }
    out.push_str(r#"<g class="matrix">"#);
    let mut cx = x + head_w;
    for (head, w) in t.columns.iter().zip(&widths) {
        let _ = write!(
            out,
            r##"<text class="matrix-head" x="{}" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="#111111">{}</text>"##,
            N(cx + w / 2.0),
            N(y + h * 0.7),
            N(font),
            esc(head)
        );
        cx += w;
    }
    let mut ry = y + h;
    for (head, cells) in &t.rows {
        let _ = write!(
            out,
            r##"<text class="matrix-head" x="{}" y="{}" font-size="{}" font-weight="bold" fill="#111111">{}</text>"##,
            N(x),
            N(ry + h * 0.68),
            N(font),
            esc(head)
        );
        let mut cx = x + head_w;
        for (cell, w) in cells.iter().zip(&widths) {
            let _ = write!(
                out,
                r##"<g {}><rect x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="#555555" stroke-width="0.5"/><text x="{}" y="{}" font-size="{}" text-anchor="middle" fill="#000000">{}</text></g>"##,
                cell.attrs,
                N(cx),
                N(ry),
                N(*w),
                N(h),
                cell.fill,
                N(cx + w / 2.0),
                N(ry + h * 0.68),
                N(font),
                esc(&cell.text)
            );
            cx += w;
        }
        ry += h;
    }
    out.push_str("</g>");
    (ry + 6.0, x + head_w + widths.iter().sum::<f64>())
}

/// Draws a swatch in the 20×16 box at (`x`, `y`).
fn swatch_svg(out: &mut String, swatch: &Swatch, x: f64, y: f64) {
    let _ = match swatch {
        Swatch::Fill { fill, pattern, opacity } => {
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="20" height="16" fill="{fill}" fill-opacity="{opacity}" stroke="#555555" stroke-width="0.5"/>"##,
                N(x),
                N(y)
            );
            if pattern.is_empty() {
                Ok(())
            } else {
                write!(
                    out,
                    r#"<rect x="{}" y="{}" width="20" height="16" fill="url(#{pattern})"/>"#,
                    N(x),
                    N(y)
                )
            }
        }
        Swatch::Outline { stroke, dash } => write!(
            out,
            r#"<rect x="{}" y="{}" width="18" height="14" fill="none" stroke="{stroke}" stroke-width="2.5" stroke-dasharray="{dash}"/>"#,
            N(x + 1.0),
            N(y + 1.0)
        ),
        Swatch::Line { stroke, width, dash } => write!(
            out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="{}" stroke-dasharray="{dash}" stroke-linecap="round"/>"#,
            N(x + 1.0),
            N(y + 8.0),
            N(x + 19.0),
            N(y + 8.0),
            N(*width)
        ),
        Swatch::Dot { fill } => write!(
            out,
            r##"<circle cx="{}" cy="{}" r="5" fill="{fill}" stroke="#000000" stroke-width="1"/>"##,
            N(x + 10.0),
            N(y + 8.0)
        ),
        Swatch::Cross => {
            let (cx, cy) = (x + 10.0, y + 8.0);
            write!(out, "{}", cross(cx, cy, 5.0, ""))
        }
        Swatch::Ring { stroke } => write!(
            out,
            r#"<circle cx="{}" cy="{}" r="6" fill="none" stroke="{stroke}" stroke-width="2.5"/>"#,
            N(x + 10.0),
            N(y + 8.0)
        ),
    };
}

/// A hit-point cross: black on a white halo, so it shows on any line or fill.
pub fn cross(cx: f64, cy: f64, r: f64, attrs: &str) -> String {
    let d = format!(
        "M{} {}L{} {}M{} {}L{} {}",
        N(cx - r),
        N(cy - r),
        N(cx + r),
        N(cy + r),
        N(cx - r),
        N(cy + r),
        N(cx + r),
        N(cy - r)
    );
    format!(
        r##"<g {attrs}><path d="{d}" stroke="#FFFFFF" stroke-width="4"/><path d="{d}" stroke="#000000" stroke-width="2"/></g>"##
    )
}

/// `text` cut into lines no wider than `width` at `font` px.
fn wrap(text: &str, font: f64, width: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
        if !line.is_empty() && text_width(&candidate, font) > width {
            lines.push(std::mem::take(&mut line));
            line = word.to_owned();
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_markup_is_escaped() {
        assert_eq!(N(12.0).to_string(), "12");
        assert_eq!(N(12.345).to_string(), "12.3");
        assert_eq!(esc("<a&\"b'>\u{1}"), "&lt;a&amp;&quot;b&apos;&gt;\u{FFFD}");
        assert_eq!(esc("a\u{FFFE}b\u{FFFF}\t"), "a\u{FFFD}b\u{FFFD}\t");
    }

    #[test]
    fn captions_wrap_to_the_width() {
        let lines = wrap("one two three four five six seven eight nine ten", 14.0, 80.0);
        assert!(lines.len() > 2);
        assert!(lines.iter().all(|l| text_width(l, 14.0) <= 80.0 || !l.contains(' ')));
    }
}
