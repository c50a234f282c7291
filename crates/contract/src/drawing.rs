//! The drawing options of a question's query string (`?scale=`), read and bounded here like
//! the body: the drawings (`arbiter-draw`) use them, the server reads them from the URL.

use arbiter_rules::encounter::Encounter;
use utoipa::IntoParams;

use crate::error::{AppError, Text};

/// The smallest and largest `?scale=`, pixels per square.
pub const SCALE_RANGE: (u32, u32) = (8, 96);
/// Pixels per square when `?scale=` is absent, for maps up to [`FIT_PX`] wide.
pub const DEFAULT_SCALE: u32 = 40;
/// A larger map is drawn smaller by default so that it stays about this wide (never under
/// [`MIN_AUTO_SCALE`] px a square).
pub const FIT_PX: u32 = 1200;
/// The smallest default scale.
pub const MIN_AUTO_SCALE: u32 = 12;

/// The drawing options of the query string.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DrawQuery {
    /// Pixels per square of the SVG drawing (`Accept: image/svg+xml`), 8 to 96; by default 40,
    /// less for maps wider than 30 squares (about 1200 px wide, at least 12 px a square).
    /// Ignored by JSON answers, but checked: a bad value is a 422 at `?scale`.
    #[param(minimum = 8, maximum = 96)]
    pub scale: Option<u32>,
}

impl DrawQuery {
    /// Reads `scale` from a query string; anything but one integer in [`SCALE_RANGE`] is a
    /// problem at `?scale` (given twice, neither value is taken over the other).
    pub fn parse(query: Option<&str>) -> Result<DrawQuery, AppError> {
        let mut out = DrawQuery::default();
        for pair in query.unwrap_or("").split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            if key != "scale" {
                continue;
            }
            if out.scale.is_some() {
                return Err(AppError::field(
                    "?scale",
                    Text::new("the scale is given more than once", "l'échelle est donnée plus d'une fois"),
                ));
            }
            let (lo, hi) = SCALE_RANGE;
            match value.parse::<u32>() {
                Ok(v) if (lo..=hi).contains(&v) => out.scale = Some(v),
                _ => {
                    return Err(AppError::field(
                        "?scale",
                        Text::new(
                            format!(
                                "the scale must be a whole number of pixels per square from {lo} to {hi}"
                            ),
                            format!("l'échelle doit être un nombre entier de pixels par case de {lo} à {hi}"),
                        ),
                    ));
                }
            }
        }
        Ok(out)
    }

    /// The pixels per square for `enc`: the one asked, else the default for its size.
    pub fn scale_for(&self, enc: &Encounter) -> f64 {
        let widest = enc.grid.width.max(enc.grid.height).max(1).unsigned_abs();
        let auto = (FIT_PX / widest).clamp(MIN_AUTO_SCALE, DEFAULT_SCALE);
        f64::from(self.scale.unwrap_or(auto))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_is_read_from_the_query_and_bounded() {
        assert_eq!(DrawQuery::parse(None).unwrap().scale, None);
        assert_eq!(DrawQuery::parse(Some("a=1&scale=24")).unwrap().scale, Some(24));
        for bad in [
            "scale=7",
            "scale=97",
            "scale=big",
            "scale=",
            "scale=-3",
            "scale=2.5",
            "scale=96&scale=8",
            "scale=24&scale=24",
        ] {
            assert!(DrawQuery::parse(Some(bad)).is_err(), "{bad}");
        }
    }
}
