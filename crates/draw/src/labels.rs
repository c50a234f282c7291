//! Label placement: every label gets a box (`class="label-box"`) that lies within the map's
//! canvas and overlaps neither another label nor a creature's token. Candidates are tried in
//! order around what is labelled (under it, above, right, left, then the four corners); a label
//! that fits nowhere becomes a number in a small box, spelled out in the footer's key.

use std::fmt::Write;

use super::xml::{N, esc};

/// The longest label drawn in full; longer ones end with an ellipsis (the full text is the
/// label's `<title>`).
pub const MAX_CHARS: usize = 14;

/// An axis-aligned box, pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// A box.
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect { x, y, w, h }
    }

    /// Whether the two boxes share some area (touching edges do not).
    pub fn overlaps(&self, o: &Rect) -> bool {
        const E: f64 = 0.01;
        self.x + E < o.x + o.w
            && o.x + E < self.x + self.w
            && self.y + E < o.y + o.h
            && o.y + E < self.y + self.h
    }

    /// Whether the box lies within `b`.
    pub fn inside(&self, b: &Rect) -> bool {
        self.x >= b.x && self.y >= b.y && self.x + self.w <= b.x + b.w && self.y + self.h <= b.y + b.h
    }

    /// The centre.
    pub fn centre(&self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
}

/// How a label looks.
#[derive(Debug, Clone, Copy)]
pub enum Look {
    /// A plain label: dark text on a white box with a border of `colour`.
    Plain(&'static str),
    /// A badge: bold text on a box filled with `fill`.
    Badge(&'static str),
}

/// The estimated width of `text` at `font` px in a sans-serif face (wide letters count more),
/// generous so that the box holds the rendered text.
pub fn text_width(text: &str, font: f64) -> f64 {
    let units: f64 = text
        .chars()
        .map(|c| match c {
            'm' | 'w' | 'M' | 'W' | '@' => 0.9,
            'i' | 'l' | 'j' | '.' | ',' | ':' | ';' | '\'' | '|' | ' ' | '\u{a0}' | '\u{202f}' => 0.35,
            c if c.is_uppercase() || c.is_ascii_digit() => 0.68,
            _ => 0.6,
        })
        .sum();
    units * font
}

/// The text shown for `text`: at most [`MAX_CHARS`] characters, an ellipsis when cut.
pub fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_CHARS {
        return text.to_owned();
    }
    let mut s: String = text.chars().take(MAX_CHARS - 1).collect();
    s.push('…');
    s
}

/// The labels of one drawing.
pub struct Labels {
    bounds: Rect,
    placed: Vec<Rect>,
    obstacles: Vec<Rect>,
    out: String,
    /// The numbered key: what each number stands for.
    pub key: Vec<String>,
}

impl Labels {
    /// Labels that must lie within `bounds`.
    pub fn new(bounds: Rect) -> Labels {
        Labels { bounds, placed: Vec::new(), obstacles: Vec::new(), out: String::new(), key: Vec::new() }
    }

    /// A box no label may cover (a creature's token).
    pub fn obstacle(&mut self, r: Rect) {
        self.obstacles.push(r);
    }

    /// The labels drawn so far.
    pub fn svg(&self) -> &str {
        &self.out
    }

    fn free(&self, r: &Rect, avoid_obstacles: bool) -> bool {
        r.inside(&self.bounds)
            && !self.placed.iter().any(|p| p.overlaps(r))
            && !(avoid_obstacles && self.obstacles.iter().any(|o| o.overlaps(r)))
    }

    /// The candidate boxes of size `w`×`h` around `near`, best first: touching it (under,
    /// above, right, left, the corners), then shifted sideways and farther out.
    fn candidates(near: &Rect, w: f64, h: f64) -> Vec<Rect> {
        let g = 2.0;
        let (cx, cy) = near.centre();
        let (left, right, top, bottom) = (near.x, near.x + near.w, near.y, near.y + near.h);
        let mut out = vec![
            Rect::new(cx - w / 2.0, bottom + g, w, h),
            Rect::new(cx - w / 2.0, top - g - h, w, h),
            Rect::new(right + g, cy - h / 2.0, w, h),
            Rect::new(left - g - w, cy - h / 2.0, w, h),
            Rect::new(right + g, bottom + g, w, h),
            Rect::new(left - g - w, bottom + g, w, h),
            Rect::new(right + g, top - g - h, w, h),
            Rect::new(left - g - w, top - g - h, w, h),
        ];
        for far in [0.0, h, 2.0 * h] {
            for dx in [w / 2.0, -w / 2.0, w, -w] {
                out.push(Rect::new(cx - w / 2.0 + dx, bottom + g + far, w, h));
                out.push(Rect::new(cx - w / 2.0 + dx, top - g - h - far, w, h));
            }
            if far > 0.0 {
                out.push(Rect::new(cx - w / 2.0, bottom + g + far, w, h));
                out.push(Rect::new(cx - w / 2.0, top - g - h - far, w, h));
            }
        }
        out
    }

    /// Places `text` near `near`; when it fits nowhere, a number in its place and the text in
    /// the key. `what` goes in the label's `data-for`.
    pub fn place(&mut self, text: &str, font: f64, near: Rect, look: Look, what: &str) {
        let shown = shorten(text);
        let (w, h) = (text_width(&shown, font) + 8.0, font * 1.35);
        let spot = Self::candidates(&near, w, h).into_iter().find(|r| self.free(r, true));
        if let Some(r) = spot {
            self.draw(r, &shown, text, font, look, what, "label");
            return;
        }
        let n = (self.key.len() + 1).to_string();
        self.key.push(format!("{n} = {text}"));
        let (w, h) = (text_width(&n, font) + 8.0, font * 1.35);
        let (cx, cy) = near.centre();
        let centred = Rect::new(cx - w / 2.0, cy - h / 2.0, w, h);
        let spot = std::iter::once(centred)
            .chain(Self::candidates(&near, w, h))
            .find(|r| self.free(r, false) && !self.obstacles.iter().any(|o| o.overlaps(r) && *o != near));
        if let Some(r) = spot {
            self.draw(r, &n, text, font, look, what, "label key-mark");
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn draw(&mut self, r: Rect, shown: &str, full: &str, font: f64, look: Look, what: &str, class: &str) {
        self.placed.push(r);
        let class = if matches!(look, Look::Badge(_)) { format!("{class} badge") } else { class.to_owned() };
        let (fill, stroke, weight, ink) = match look {
            Look::Plain(colour) => ("#FFFFFF", colour, "normal", "#111111"),
            Look::Badge(fill) => (fill, "#000000", "bold", "#000000"),
        };
        let _ = write!(
            self.out,
            r#"<g class="{class}" data-for="{}"><title>{}</title><rect class="label-box" x="{}" y="{}" width="{}" height="{}" rx="3" fill="{fill}" fill-opacity="0.92" stroke="{stroke}" stroke-width="1"/><text x="{}" y="{}" font-size="{}" font-weight="{weight}" text-anchor="middle" fill="{ink}">{}</text></g>"#,
            esc(what),
            esc(full),
            N(r.x),
            N(r.y),
            N(r.w),
            N(r.h),
            N(r.x + r.w / 2.0),
            N(r.y + r.h * 0.74),
            N(font),
            esc(shown)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crowded_labels_fall_back_to_numbers_and_never_overlap() {
        let mut l = Labels::new(Rect::new(0.0, 0.0, 100.0, 60.0));
        let token = Rect::new(40.0, 20.0, 20.0, 20.0);
        l.obstacle(token);
        for i in 0..6 {
            l.place(&format!("creature number {i}"), 12.0, token, Look::Plain("#000"), "x");
        }
        assert!(!l.key.is_empty(), "a 100 px canvas cannot hold six long labels");
        for (i, a) in l.placed.iter().enumerate() {
            assert!(a.inside(&l.bounds));
            assert!(l.placed[i + 1..].iter().all(|b| !a.overlaps(b)));
        }
    }

    #[test]
    fn long_texts_are_cut_with_an_ellipsis() {
        assert_eq!(shorten("goblin"), "goblin");
        assert_eq!(shorten("the goblin chieftain"), "the goblin ch…");
        assert_eq!(shorten("the goblin chieftain").chars().count(), MAX_CHARS);
    }
}
