//! One error type for every failure, and its RFC 9457 problem document in English or French.
//!
//! Every problem text is a [`Text`]: both languages, made where the problem is found. The
//! server turns an [`AppError`] into its HTTP answer (status, headers, the body in the
//! request's language); nothing here knows HTTP beyond the status number.

use serde::Serialize;
use utoipa::ToSchema;

use arbiter_rules::dice::{DiceError, Purpose};
use arbiter_rules::error::RulesError;

use crate::lang::Lang;
pub use crate::lang::Text;

/// One offending field, as sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct FieldError {
    /// JSON pointer (RFC 6901) into the request body (`/encounter/creatures/2/at`), or `?`
    /// and the name of a query parameter (`?scale`).
    pub pointer: String,
    /// What is wrong there, in the language of `Accept-Language`.
    pub detail: String,
}

/// One offending field, in both languages, before it is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// JSON pointer (RFC 6901) into the request body.
    pub pointer: String,
    /// What is wrong there.
    pub detail: Text,
}

impl Issue {
    /// An issue at `pointer`.
    pub fn new(pointer: impl Into<String>, detail: Text) -> Issue {
        Issue { pointer: pointer.into(), detail }
    }

    /// The field error as sent, in `lang`.
    pub fn render(&self, lang: Lang) -> FieldError {
        FieldError { pointer: self.pointer.clone(), detail: self.detail.get(lang).to_owned() }
    }
}

/// An RFC 9457 problem document.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:arbiter:problem:invalid-request",
    "title": "The request is invalid",
    "status": 422,
    "detail": "1 problem in the request",
    "errors": [{"pointer": "/encounter/creatures/1/at", "detail": "its 1×1 space from (12, 0) must lie inside the 12×8 grid"}]
}))]
pub struct Problem {
    /// A URN naming the kind of problem.
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the kind, in the language of `Accept-Language`.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What happened this time, in the language of `Accept-Language`.
    pub detail: String,
    /// The offending fields, when there are some.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
}

/// Everything a handler can fail with.
#[derive(Debug)]
pub enum AppError {
    /// 400: the body is not JSON.
    Malformed(Text),
    /// 413: the body is too large.
    TooLarge(usize),
    /// 413: an imported file is over the import limit (bytes), hit while `pointer` was read.
    ImportTooLarge {
        /// The limit, `ARBITER_MAX_IMPORT_BYTES`.
        limit: usize,
        /// Where in the file the reading was when the limit was reached.
        pointer: String,
    },
    /// 415: the body is not `application/json`.
    UnsupportedMediaType,
    /// 422: the request is JSON but invalid.
    Invalid(Vec<Issue>),
    /// 422: the ruleset does not answer this question.
    Unsupported(Text),
    /// 422: the work budget ran out.
    Budget(u64),
    /// 408: the body did not arrive within the body read timeout (seconds).
    BodyTimeout(u64),
    /// 422: the answer would exceed the answer size limit.
    AnswerTooLarge {
        /// Bytes the answer would take, as far as is known.
        size: AnswerSize,
        /// The limit.
        limit: usize,
        /// Which option to turn off.
        hint: Hint,
    },
    /// 503: every rules worker is busy and the queue is full.
    Overloaded,
    /// 503: the process is shutting down and cancelled the request's work.
    ShuttingDown,
    /// 503: large answers waiting to be sent already hold the answer memory.
    AnswersPending,
    /// 503: the bodies of questions being read or worked on already hold the body memory.
    BodiesPending,
    /// 503: the request took too long.
    Timeout,
    /// 404: no such route.
    NotFound,
    /// 405.
    MethodNotAllowed,
    /// Any other HTTP error status made by a layer (not a handler): the status, its reason
    /// phrase (the problem's title) and its detail.
    Status {
        /// The HTTP status.
        code: u16,
        /// The status's reason phrase.
        title: Text,
        /// What happened.
        detail: Text,
    },
    /// 500: a bug; details are logged, never sent.
    Internal(String),
}

/// What to turn off when an answer is too large.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hint {
    /// A whole-scene analysis.
    Analyze,
    /// A drawing.
    Svg,
    /// Any other answer.
    Smaller,
}

impl Hint {
    fn text(self) -> (&'static str, &'static str) {
        match self {
            Hint::Analyze => (
                "set traces to false, or name fewer attackers",
                "mettez traces à false, ou nommez moins d'attaquants",
            ),
            Hint::Svg => (
                "ask for application/json instead of image/svg+xml, or send a smaller map",
                "demandez application/json au lieu d'image/svg+xml, ou envoyez une carte plus petite",
            ),
            Hint::Smaller => ("ask about a smaller scene", "interrogez une scène plus petite"),
        }
    }
}

impl AppError {
    /// A single-field 422.
    pub fn field(pointer: impl Into<String>, detail: Text) -> Self {
        AppError::Invalid(vec![Issue::new(pointer, detail)])
    }

    /// The problem document of this error, in `lang`.
    pub fn problem(&self, lang: Lang) -> Problem {
        Problem {
            kind: format!("urn:arbiter:problem:{}", self.kind()),
            title: self.title().get(lang).to_owned(),
            status: self.status(),
            detail: self.detail().get(lang).to_owned(),
            errors: self.errors().iter().map(|e| e.render(lang)).collect(),
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            AppError::Malformed(_) => 400,
            AppError::TooLarge(_) | AppError::ImportTooLarge { .. } => 413,
            AppError::UnsupportedMediaType => 415,
            AppError::Invalid(_) | AppError::Unsupported(_) | AppError::Budget(_) => 422,
            AppError::BodyTimeout(_) => 408,
            AppError::AnswerTooLarge { .. } => 422,
            AppError::AnswersPending
            | AppError::BodiesPending
            | AppError::ShuttingDown
            | AppError::Overloaded
            | AppError::Timeout => 503,
            AppError::NotFound => 404,
            AppError::MethodNotAllowed => 405,
            AppError::Status { code, .. } => *code,
            AppError::Internal(_) => 500,
        }
    }

    /// Whether the client may retry shortly (the server sends `Retry-After: 1`).
    pub fn retry_soon(&self) -> bool {
        matches!(
            self,
            AppError::Overloaded
                | AppError::Timeout
                | AppError::ShuttingDown
                | AppError::AnswersPending
                | AppError::BodiesPending
        )
    }

    /// The problem's title: what went wrong, the same for every error of a kind.
    fn title(&self) -> Text {
        let (en, fr) = match self {
            AppError::Malformed(_) => ("The body is not valid JSON", "Le corps n'est pas du JSON valide"),
            AppError::TooLarge(_) | AppError::ImportTooLarge { .. } => {
                ("The body is too large", "Le corps est trop volumineux")
            }
            AppError::UnsupportedMediaType => ("The body must be JSON", "Le corps doit être du JSON"),
            AppError::Invalid(_) => ("The request is invalid", "La requête est invalide"),
            AppError::Unsupported(_) => (
                "The ruleset does not answer this question",
                "Le jeu de règles ne répond pas à cette question",
            ),
            AppError::Budget(_) => (
                "The question needs more work than one request may do",
                "La question demande plus de travail qu'une requête n'en permet",
            ),
            AppError::BodyTimeout(_) => ("The body arrived too slowly", "Le corps est arrivé trop lentement"),
            AppError::AnswerTooLarge { .. } => {
                ("The answer would be too large", "La réponse serait trop volumineuse")
            }
            AppError::AnswersPending | AppError::BodiesPending | AppError::Overloaded => {
                ("The service is at capacity", "Le service est à pleine capacité")
            }
            AppError::ShuttingDown => ("The service is shutting down", "Le service s'arrête"),
            AppError::Timeout => ("The request took too long", "La requête a pris trop de temps"),
            AppError::NotFound => ("No such resource", "Ressource introuvable"),
            AppError::MethodNotAllowed => ("Method not allowed", "Méthode non autorisée"),
            AppError::Status { title, .. } => return title.clone(),
            AppError::Internal(_) => ("Internal error", "Erreur interne"),
        };
        Text::new(en, fr)
    }

    /// The problem's detail: this occurrence, and what to do about it.
    fn detail(&self) -> Text {
        match self {
            AppError::Malformed(d) | AppError::Unsupported(d) | AppError::Status { detail: d, .. } => {
                d.clone()
            }
            AppError::TooLarge(limit) => Text::new(
                format!("the body exceeds the limit of {limit} bytes"),
                format!("le corps dépasse la limite de {limit} octets"),
            ),
            AppError::ImportTooLarge { limit, pointer } => {
                let (at, a) = if pointer.is_empty() {
                    ("its top level", "son premier niveau")
                } else {
                    (pointer.as_str(), pointer.as_str())
                };
                Text::new(
                    format!(
                        "the file exceeds the import limit of {limit} bytes (reached while reading {at}); raise it with ARBITER_MAX_IMPORT_BYTES (--max-import-bytes), or export the map without its picture"
                    ),
                    format!(
                        "le fichier dépasse la limite d'import de {limit} octets (atteinte en lisant {a}) ; augmentez-la avec ARBITER_MAX_IMPORT_BYTES (--max-import-bytes), ou exportez la carte sans son image"
                    ),
                )
            }
            AppError::UnsupportedMediaType => Text::new(
                "send the body with Content-Type: application/json",
                "envoyez le corps avec Content-Type: application/json",
            ),
            AppError::Invalid(errors) => problem_count(errors.len()),
            AppError::Budget(limit) => Text::new(
                format!(
                    "the answer needed more than {limit} work units; ask about fewer creatures or a smaller map"
                ),
                format!(
                    "la réponse demandait plus de {limit} unités de travail ; interrogez moins de créatures ou une carte plus petite"
                ),
            ),
            AppError::BodyTimeout(secs) => Text::new(
                format!("the whole body must arrive within {secs} s"),
                format!("le corps entier doit arriver en {secs} s au plus"),
            ),
            AppError::AnswerTooLarge { size, limit, hint } => {
                let (en, fr) = hint.text();
                Text::new(
                    format!("the answer would take {} bytes, over the limit of {limit}; {en}", size.en()),
                    format!(
                        "la réponse prendrait {} octets, au-delà de la limite de {limit} ; {fr}",
                        size.fr()
                    ),
                )
            }
            AppError::AnswersPending => Text::new(
                "large answers waiting for their clients to read them hold the answer memory; retry shortly",
                "de grandes réponses qui attendent d'être lues par leurs clients occupent la mémoire des réponses ; réessayez sous peu",
            ),
            AppError::BodiesPending => Text::new(
                "the bodies of the questions in progress hold the body memory; retry shortly",
                "les corps des questions en cours occupent la mémoire des corps ; réessayez sous peu",
            ),
            AppError::ShuttingDown => Text::new(
                "this replica is stopping; retry on another",
                "cette instance s'arrête ; réessayez sur une autre",
            ),
            AppError::Overloaded => Text::new(
                "every rules worker is busy and the queue is full; retry shortly",
                "tous les exécutants des règles sont occupés et la file est pleine ; réessayez sous peu",
            ),
            AppError::Timeout => Text::new(
                "the request was not answered in time; retry shortly",
                "la requête n'a pas reçu de réponse à temps ; réessayez sous peu",
            ),
            AppError::NotFound => Text::new("see /docs for the API", "voir /docs pour l'API"),
            AppError::MethodNotAllowed => Text::new(
                "see /docs for the methods of each path",
                "voir /docs pour les méthodes de chaque chemin",
            ),
            AppError::Internal(_) => Text::new(
                "an unexpected error occurred; it has been logged",
                "une erreur inattendue s'est produite ; elle a été journalisée",
            ),
        }
    }

    /// The problem's field errors, each with its JSON pointer (422 only).
    fn errors(&self) -> Vec<Issue> {
        match self {
            AppError::Invalid(errors) => listed(errors),
            AppError::Unsupported(d) => vec![Issue::new("/encounter/ruleset", d.clone())],
            AppError::ImportTooLarge { pointer, .. } => vec![Issue::new(
                pointer.clone(),
                Text::new("the limit was reached here", "la limite a été atteinte ici"),
            )],
            _ => vec![],
        }
    }
}

/// "1 problem in the request", "3 problems …".
fn problem_count(n: usize) -> Text {
    let (s, fr) = if n == 1 { ("", "problème") } else { ("s", "problèmes") };
    let listed = if n > MAX_LISTED_ERRORS {
        (
            format!("; the first {MAX_LISTED_ERRORS} are listed"),
            format!(" ; les {MAX_LISTED_ERRORS} premiers sont listés"),
        )
    } else {
        (String::new(), String::new())
    };
    Text::new(
        format!("{n} problem{s} in the request{}", listed.0),
        format!("{n} {fr} dans la requête{}", listed.1),
    )
}

/// The most field errors one problem lists: a body of a million bad cells must not make an
/// answer of a million errors.
pub const MAX_LISTED_ERRORS: usize = 100;

/// The first [`MAX_LISTED_ERRORS`] errors, and one more entry that counts the rest.
fn listed(errors: &[Issue]) -> Vec<Issue> {
    let mut out: Vec<Issue> = errors.iter().take(MAX_LISTED_ERRORS).cloned().collect();
    if errors.len() > MAX_LISTED_ERRORS {
        let more = errors.len() - MAX_LISTED_ERRORS;
        out.push(Issue::new(
            "",
            Text::new(
                format!("and {more} more problems not listed"),
                format!("et {more} autres problèmes non listés"),
            ),
        ));
    }
    out
}

/// How much is known of a refused answer's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerSize {
    /// Measured.
    Exact(u64),
    /// Estimated before the work, from above.
    UpTo(u64),
    /// Building stopped once past the limit.
    AtLeast(u64),
}

impl AnswerSize {
    fn en(self) -> String {
        match self {
            AnswerSize::Exact(n) => format!("{n}"),
            AnswerSize::UpTo(n) => format!("up to {n}"),
            AnswerSize::AtLeast(n) => format!("at least {n}"),
        }
    }

    fn fr(self) -> String {
        match self {
            AnswerSize::Exact(n) => format!("{n}"),
            AnswerSize::UpTo(n) => format!("jusqu'à {n}"),
            AnswerSize::AtLeast(n) => format!("au moins {n}"),
        }
    }
}

impl AppError {
    /// The problem type's last part (`invalid-request`): the metrics count answers by it.
    pub fn kind(&self) -> &'static str {
        match self {
            AppError::Malformed(_) => "malformed-json",
            AppError::TooLarge(_) | AppError::ImportTooLarge { .. } => "body-too-large",
            AppError::UnsupportedMediaType => "unsupported-media-type",
            AppError::Invalid(_) => "invalid-request",
            AppError::Unsupported(_) => "unsupported-question",
            AppError::Budget(_) => "work-budget-exceeded",
            AppError::BodyTimeout(_) => "body-timeout",
            AppError::AnswerTooLarge { .. } => "answer-too-large",
            AppError::Overloaded => "overloaded",
            AppError::ShuttingDown => "shutting-down",
            AppError::AnswersPending => "answers-pending",
            AppError::BodiesPending => "bodies-pending",
            AppError::Timeout => "timeout",
            AppError::NotFound => "not-found",
            AppError::MethodNotAllowed => "method-not-allowed",
            AppError::Status { .. } => "http-error",
            AppError::Internal(_) => "internal",
        }
    }
}

impl From<RulesError> for AppError {
    fn from(e: RulesError) -> Self {
        match e {
            RulesError::Field { pointer, detail } => {
                AppError::field(pointer, crate::rules_text::field(&detail))
            }
            RulesError::MissingStat { pointer, creature, stat } => AppError::field(
                pointer,
                Text::new(
                    format!("creature {creature:?} needs the stat {stat} for this question"),
                    format!(
                        "la créature « {creature} » a besoin de la caractéristique {stat} pour cette question"
                    ),
                ),
            ),
            RulesError::Unsupported { ruleset, what } => {
                AppError::Unsupported(crate::rules_text::unsupported(ruleset, &what))
            }
            // A cancelled budget means the request was already given up on (timeout, client
            // gone, shutdown): whatever answer is made here is not the one sent.
            RulesError::Budget(b) if b.cancelled => AppError::Timeout,
            RulesError::Budget(b) => AppError::Budget(b.limit),
            RulesError::Dice(d) => dice_error(d),
        }
    }
}

/// The JSON pointer of a purpose's faces under `dice/rolls` (initiative faces are keyed by
/// creature id). Here rather than with the dice's wire types, which use the errors: the
/// errors import nothing from `api`.
pub fn rolls_pointer(purpose: &Purpose) -> String {
    match purpose {
        Purpose::Initiative(id) => format!("/dice/rolls/initiative/{id}"),
        other => format!("/dice/rolls/{}", other.key()),
    }
}

fn dice_error(d: DiceError) -> AppError {
    match d {
        DiceError::Missing { purpose, needed, given } => AppError::field(
            rolls_pointer(&purpose),
            Text::new(
                format!("{needed} {} face(s) needed, {given} given", purpose.key()),
                format!("{needed} face(s) nécessaire(s) pour {}, {given} fournie(s)", purpose.key()),
            ),
        ),
        DiceError::OutOfRange { purpose, index, face, sides } => AppError::field(
            format!("{}/{index}", rolls_pointer(&purpose)),
            Text::new(
                format!("{face} is not a face of a d{sides}"),
                format!("{face} n'est pas une face d'un d{sides}"),
            ),
        ),
    }
}
