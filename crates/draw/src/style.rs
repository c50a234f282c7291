//! Colours, dashes and patterns. The hues are Okabe and Ito's (2008) eight, chosen to stay
//! apart under protanopia, deuteranopia and tritanopia; no two kinds of one drawing differ by
//! hue alone: each also has its own dash, pattern or shape.

use arbiter_rules::encounter::{Terrain, WallKind};

/// Okabe–Ito black.
pub const BLACK: &str = "#000000";
/// Okabe–Ito orange.
pub const ORANGE: &str = "#E69F00";
/// Okabe–Ito sky blue.
pub const SKY: &str = "#56B4E9";
/// Okabe–Ito bluish green.
pub const GREEN: &str = "#009E73";
/// Okabe–Ito yellow.
pub const YELLOW: &str = "#F0E442";
/// Okabe–Ito blue.
pub const BLUE: &str = "#0072B2";
/// Okabe–Ito vermillion: the "red" of blocked lines and illegal steps.
pub const RED: &str = "#D55E00";
/// Okabe–Ito reddish purple.
pub const PURPLE: &str = "#CC79A7";
/// A neutral grey for what no longer counts (steps after an illegal one).
pub const GREY: &str = "#8C8C8C";

/// The colours of the creatures' sides, in order of first appearance (the hues the lines and
/// markers use come last).
pub const SIDES: [&str; 6] = [SKY, PURPLE, YELLOW, GREEN, BLUE, ORANGE];

/// How a thin wall is stroked: colour, width (fraction of the scale, at least 2 px) and dash.
pub struct WallStyle {
    /// Stroke colour.
    pub stroke: &'static str,
    /// Width in squares.
    pub width: f64,
    /// `stroke-dasharray`, in multiples of the width; empty for a solid line.
    pub dash: &'static str,
}

/// The stroke of each wall kind: solid black; low orange dashed; window sky blue dash-dot;
/// arrow slit black dotted; closed door a thick solid blue bar; open door thin long-dashed
/// blue; a barrier (movement only) reddish purple, short dashes.
pub fn wall(kind: WallKind) -> WallStyle {
    let (stroke, width, dash) = match kind {
        WallKind::Solid => (BLACK, 0.12, ""),
        WallKind::Low => (ORANGE, 0.1, "2 1"),
        WallKind::Window => (SKY, 0.1, "3 0.8 0.6 0.8"),
        WallKind::ArrowSlit => (BLACK, 0.1, "0.01 1.6"),
        WallKind::DoorClosed => (BLUE, 0.18, ""),
        WallKind::DoorOpen => (BLUE, 0.06, "3 2"),
        WallKind::Barrier => (PURPLE, 0.08, "1 1"),
    };
    WallStyle { stroke, width, dash }
}

/// The wire id of a wall kind (the `data-kind` of its elements).
pub fn wall_id(kind: WallKind) -> &'static str {
    kind.id()
}

/// Every wall kind, in legend order.
pub const WALL_KINDS: [WallKind; 7] = [
    WallKind::Solid,
    WallKind::Low,
    WallKind::Window,
    WallKind::ArrowSlit,
    WallKind::DoorClosed,
    WallKind::DoorOpen,
    WallKind::Barrier,
];

/// The terrain kinds drawn, in legend order: flag, id, fill, pattern id.
pub const TERRAINS: [(Terrain, &str, &str, &str); 6] = [
    (Terrain::SOLID, "solid", "#3D3D3D", ""),
    (Terrain::OPAQUE, "opaque", "#A6A6A6", "p-opaque"),
    (Terrain::LOW, "low", "#F7E1B5", "p-low"),
    (Terrain::CONCEALING, "concealing", "#CFEDE3", "p-concealing"),
    (Terrain::WATER, "water", "#BFE1F5", "p-water"),
    (Terrain::DIFFICULT, "difficult", "#EFE6CF", "p-difficult"),
];

/// The patterns and arrow heads every drawing may use.
pub const DEFS: &str = concat!(
    r##"<defs>"##,
    r##"<pattern id="p-opaque" width="8" height="8" patternUnits="userSpaceOnUse"><path d="M0 0L8 8M8 0L0 8" stroke="#555555" stroke-width="1"/></pattern>"##,
    r##"<pattern id="p-low" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="3" height="8" fill="#E69F00" fill-opacity="0.6"/></pattern>"##,
    r##"<pattern id="p-concealing" width="8" height="8" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="1.6" fill="#009E73"/><circle cx="6" cy="6" r="1.6" fill="#009E73"/></pattern>"##,
    r##"<pattern id="p-water" width="12" height="6" patternUnits="userSpaceOnUse"><path d="M0 4Q3 1 6 4T12 4" fill="none" stroke="#0072B2" stroke-width="1"/></pattern>"##,
    r##"<pattern id="p-difficult" width="6" height="6" patternUnits="userSpaceOnUse"><circle cx="3" cy="3" r="1" fill="#6B5A3A"/></pattern>"##,
    r##"<pattern id="p-dim" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="1.5" height="6" fill="#000000" fill-opacity="0.35"/></pattern>"##,
    r##"<marker id="arrow-oa" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0L10 5L0 10z" fill="#E69F00" stroke="#000000" stroke-width="0.8"/></marker>"##,
    r##"<marker id="arrow-step" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0 0L10 5L0 10z" fill="#000000"/></marker>"##,
    r##"</defs>"##
);
