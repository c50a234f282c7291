//! The languages of the API (English, French), a text in both, and French typography.

/// The language of an answer: trace texts, problem details, drawing captions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English (default).
    En,
    /// French (the sources' language).
    Fr,
}

impl Lang {
    /// Picks from an `Accept-Language` value: the supported language with the highest
    /// q-value; English when none is supported or the header is absent.
    pub fn from_accept_language(value: Option<&str>) -> Lang {
        let Some(v) = value else {
            return Lang::En;
        };
        let mut best: Option<(f32, Lang)> = None;
        for part in v.split(',') {
            let mut it = part.split(';');
            let tag = it.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = it
                .find_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()))
                .unwrap_or(1.0);
            let lang = match tag.split('-').next() {
                Some("fr") => Lang::Fr,
                Some("en") => Lang::En,
                _ => continue,
            };
            if q > 0.0 && best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, lang));
            }
        }
        best.map_or(Lang::En, |(_, l)| l)
    }

    /// The `Content-Language` value.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }
}

/// A text in both languages of the API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    en: String,
    fr: String,
}

impl Text {
    /// The English and French of one text. French typography is applied to `fr` here
    /// ([`french_typography`]), so callers write plain spaces before `:` `;` `!` `?`.
    pub fn new(en: impl Into<String>, fr: impl AsRef<str>) -> Text {
        Text { en: en.into(), fr: french_typography(fr.as_ref()) }
    }

    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Fr => &self.fr,
        }
    }
}

/// French typography, one convention for every text: a no-break space (U+00A0) before `:`,
/// `;`, `!`, `?` and `%` and inside « ». A plain space written before a sign becomes a no-break
/// space, so French texts are written with ordinary spaces; a missing space is added where the
/// sign ends a word (`ordre: a`, `20%`), but not inside a token (`10:30`, `https://`).
pub fn french_typography(text: &str) -> String {
    const NBSP: char = '\u{a0}';
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let prev = out.chars().last();
        let next = chars.get(i + 1).copied();
        match c {
            ':' | ';' | '!' | '?' | '%' | '»' => match prev {
                Some(' ') => {
                    out.pop();
                    out.push(NBSP);
                }
                Some(p) if p != NBSP && ends_a_word(c, p, next) => out.push(NBSP),
                _ => {}
            },
            ' ' if prev == Some('«') => {
                out.push(NBSP);
                continue;
            }
            _ if prev == Some('«') && c != NBSP => out.push(NBSP),
            _ => {}
        }
        out.push(c);
    }
    out
}

/// Whether the sign `c`, written right after `prev`, closes a word rather than sitting inside a
/// token: `»` always, `%` after a number, the others before a space or the end (`x): y`).
fn ends_a_word(c: char, prev: char, next: Option<char>) -> bool {
    match c {
        '»' => true,
        '%' => prev.is_ascii_digit(),
        _ => !prev.is_whitespace() && next.is_none_or(char::is_whitespace),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(v: &'static str) -> Lang {
        Lang::from_accept_language(Some(v))
    }

    #[test]
    fn french_typography_uses_no_break_spaces() {
        assert_eq!(french_typography("abri total : +5 ; 20 %"), "abri total\u{a0}: +5\u{a0}; 20\u{a0}%");
        assert_eq!(french_typography("ordre: a, b; 20% !"), "ordre\u{a0}: a, b\u{a0}; 20\u{a0}%\u{a0}!");
        assert_eq!(french_typography("« abri »"), "«\u{a0}abri\u{a0}»");
        assert_eq!(french_typography("«abri»"), "«\u{a0}abri\u{a0}»");
        assert_eq!(french_typography("déjà\u{a0}: fait"), "déjà\u{a0}: fait");
        assert_eq!(french_typography("https://a 10:30 x:y"), "https://a 10:30 x:y");
        assert_eq!(french_typography("(goblin): noté"), "(goblin)\u{a0}: noté");
    }

    #[test]
    fn accept_language() {
        assert_eq!(Lang::from_accept_language(None), Lang::En);
        assert_eq!(lang("fr"), Lang::Fr);
        assert_eq!(lang("fr-CA, en;q=0.5"), Lang::Fr);
        assert_eq!(lang("en-GB, fr;q=0.9"), Lang::En);
        assert_eq!(lang("de, fr;q=0.3"), Lang::Fr);
        assert_eq!(lang("de"), Lang::En);
        assert_eq!(lang("fr;q=0, en"), Lang::En);
    }
}
