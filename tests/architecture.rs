//! The workspace's layout rules, each a test that names every offender with its file and line.
//!
//! These checks read the sources as text, with std alone: no parser crate, and no compiler help,
//! so they stay fast and run anywhere (also standalone:
//! `rustc --edition 2024 --test tests/architecture.rs -o /tmp/arch && /tmp/arch` from the
//! repository root). What they understand of Rust is stated on each check.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The repository root: the root package's directory under cargo, the current directory when
/// compiled standalone.
fn repo() -> PathBuf {
    match option_env!("CARGO_MANIFEST_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::current_dir().expect("a current directory"),
    }
}

/// The source folder of every crate: the server's `src/`, then each `crates/*/src`.
fn crate_sources() -> Vec<PathBuf> {
    let mut dirs = vec![repo().join("src")];
    dirs.extend(crate_dirs().into_iter().map(|dir| dir.join("src")).filter(|dir| dir.is_dir()));
    dirs
}

/// Each folder of `crates/`, sorted.
fn crate_dirs() -> Vec<PathBuf> {
    sorted_entries(&repo().join("crates")).into_iter().filter(|path| path.is_dir()).collect()
}

/// A folder's entries, sorted so that every report comes out in the same order; none when the
/// folder does not exist.
fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(read) => read.filter_map(|entry| entry.ok().map(|entry| entry.path())).collect(),
        Err(_) => Vec::new(),
    };
    entries.sort();
    entries
}

/// Every `.rs` file below `dir`, as paths relative to it with `/` separators.
fn rust_files(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for path in sorted_entries(&at) {
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(relative(&path, dir));
            }
        }
    }
    files.sort();
    files
}

fn relative(path: &Path, base: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    rel.components().map(|part| part.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// Fails with every offender, one a line, under `title`.
fn assert_none(title: &str, offenders: &[String]) {
    assert!(offenders.is_empty(), "{title} ({}):\n{}", offenders.len(), offenders.join("\n"));
}

fn is_ident(byte: u8) -> bool {
    matches!(byte, b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_')
}

// ---------------------------------------------------------------------------------------------
// Reading a Rust file
// ---------------------------------------------------------------------------------------------

/// A source file reduced to what the checks may read: comments, the insides of string and char
/// literals and test-only items are blanked out with spaces (newlines kept), so that byte offsets
/// and line numbers stay those of the file while no brace, `fn` or path in a comment, a string or
/// a test counts.
struct Source {
    /// The path shown in reports, relative to the repository root.
    shown: String,
    code: Vec<u8>,
    /// The string literals outside test code: the offset of the opening quote, the text.
    strings: Vec<(usize, String)>,
    /// The modules declared `#[cfg(test)] mod name;`: files of test code.
    test_modules: Vec<String>,
    line_starts: Vec<usize>,
}

impl Source {
    fn read(path: &Path) -> Source {
        let text = fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        let (mut code, strings) = lex(&text);
        let test_modules = blank_test_items(&mut code);
        // A string inside a test item lost its opening quote to the blanking.
        let strings = strings.into_iter().filter(|&(at, _)| code[at] == b'"').collect();
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1)).collect();
        Source { shown: relative(path, &repo()), code, strings, test_modules, line_starts }
    }

    /// The 1-based line of a byte offset.
    fn line(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= offset)
    }

    fn at(&self, offset: usize) -> String {
        format!("{}:{}", self.shown, self.line(offset))
    }
}

fn blank(code: &mut [u8], range: Range<usize>) {
    for byte in &mut code[range] {
        if *byte != b'\n' {
            *byte = b' ';
        }
    }
}

/// Blanks comments and the insides of literals; returns the code and the string literals.
fn lex(text: &str) -> (Vec<u8>, Vec<(usize, String)>) {
    let src = text.as_bytes();
    let mut code = src.to_vec();
    let mut strings = Vec::new();
    let mut i = 0;
    while i < src.len() {
        let next = src.get(i + 1).copied();
        match src[i] {
            b'/' if next == Some(b'/') => {
                let end = src[i..].iter().position(|&b| b == b'\n').map_or(src.len(), |n| i + n);
                blank(&mut code, i..end);
                i = end;
            }
            b'/' if next == Some(b'*') => {
                let end = block_comment_end(src, i);
                blank(&mut code, i..end);
                i = end;
            }
            b'"' => {
                let end = string_end(src, i + 1);
                strings.push((i, text[i + 1..end].to_string()));
                blank(&mut code, i + 1..end);
                i = end + 1;
            }
            b'r' if raw_string_hashes(src, i).is_some() => {
                let hashes = raw_string_hashes(src, i).unwrap_or_default();
                let open = i + 1 + hashes;
                let mut close = vec![b'"'];
                close.extend(std::iter::repeat_n(b'#', hashes));
                let end = find(src, &close, open + 1).unwrap_or(src.len());
                blank(&mut code, open + 1..end);
                i = end + close.len();
            }
            b'\'' => i = char_literal(src, &mut code, i),
            _ => i += 1,
        }
    }
    (code, strings)
}

/// The offset just past a (nestable) block comment opening at `start`.
fn block_comment_end(src: &[u8], start: usize) -> usize {
    let (mut depth, mut i) = (0, start);
    while i + 1 < src.len() {
        match (src[i], src[i + 1]) {
            (b'/', b'*') => (depth, i) = (depth + 1, i + 2),
            (b'*', b'/') => {
                (depth, i) = (depth - 1, i + 2);
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    src.len()
}

/// The offset of the quote closing a string whose text starts at `start`.
fn string_end(src: &[u8], start: usize) -> usize {
    let mut i = start;
    while i < src.len() {
        match src[i] {
            b'\\' => i += 2,
            b'"' => return i,
            _ => i += 1,
        }
    }
    src.len()
}

/// `Some(number of #)` when a raw string (`r"…"`, `r#"…"#`, `br"…"`) starts at this `r`.
fn raw_string_hashes(src: &[u8], at: usize) -> Option<usize> {
    // The `r` must start a token (or follow a `b`/`c` prefix that does): `bar"` is no raw string.
    let token_start = |i: usize| i == 0 || !is_ident(src[i - 1]);
    let prefixed = at > 0 && matches!(src[at - 1], b'b' | b'c') && token_start(at - 1);
    if !token_start(at) && !prefixed {
        return None;
    }
    let hashes = src[at + 1..].iter().take_while(|&&b| b == b'#').count();
    (src.get(at + 1 + hashes) == Some(&b'"')).then_some(hashes)
}

/// Blanks the char literal at `at` if it is one (not a lifetime or a label); returns where to go on.
fn char_literal(src: &[u8], code: &mut [u8], at: usize) -> usize {
    let end = if src.get(at + 1) == Some(&b'\\') {
        // `'\''`, `'\u{1F600}'`: the escaped character, then up to the closing quote.
        find(src, b"'", at + 3)
    } else {
        // One character, however many bytes UTF-8 gives it, then the quote; else a lifetime.
        let width = match src.get(at + 1) {
            Some(&b) if b >= 0xF0 => 4,
            Some(&b) if b >= 0xE0 => 3,
            Some(&b) if b >= 0xC0 => 2,
            _ => 1,
        };
        (src.get(at + 1 + width) == Some(&b'\'')).then_some(at + 1 + width)
    };
    match end {
        Some(end) => {
            blank(code, at + 1..end);
            end + 1
        }
        None => at + 1,
    }
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|at| at + from)
}

/// The offset of the bracket closing the one at `open`, in blanked code.
fn closing(code: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, &byte) in code.iter().enumerate().skip(open) {
        match byte {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    code.len() - 1
}

/// The end of the item starting at `start`: its body's closing brace, or its `;`. Brackets and
/// parentheses are skipped whole so that `-> [u8; 4]` ends nothing. `None` when there is no item.
fn item_end(code: &[u8], start: usize) -> Option<(usize, bool)> {
    let mut i = start;
    while i < code.len() {
        match code[i] {
            b'(' | b'[' => i = closing(code, i),
            b'{' => return Some((closing(code, i), true)),
            b';' => return Some((i, false)),
            _ => {}
        }
        i += 1;
    }
    None
}

fn skip_space(code: &[u8], mut i: usize) -> usize {
    while code.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// Blanks every item under `#[cfg(test)]` (a test module may use anything, and its helpers are
/// not the product); returns the names of test modules kept in their own files.
fn blank_test_items(code: &mut [u8]) -> Vec<String> {
    const MARK: &[u8] = b"#[cfg(test)]";
    let mut test_modules = Vec::new();
    let mut from = 0;
    while let Some(at) = find(code, MARK, from) {
        let mut start = skip_space(code, at + MARK.len());
        while code[start..].starts_with(b"#[") {
            start = skip_space(code, closing(code, start + 1) + 1);
        }
        let Some((end, _)) = item_end(code, start) else { break };
        let words: Vec<&[u8]> = code[start..end].split(u8::is_ascii_whitespace).collect();
        if let Some(name) = words.iter().position(|&w| w == b"mod").and_then(|i| words.get(i + 1)) {
            test_modules.push(String::from_utf8_lossy(name).into_owned());
        }
        blank(code, at..end + 1);
        from = end + 1;
    }
    test_modules
}

/// The identifier at `at` (with a leading `$` for `$crate`), if one starts there.
fn ident_at(code: &[u8], at: usize) -> Option<&str> {
    let start = if code.get(at) == Some(&b'$') { at + 1 } else { at };
    let len = code.get(start..)?.iter().take_while(|&&b| is_ident(b)).count();
    let starts_token = at == 0 || !is_ident(code[at - 1]) && code[at - 1] != b'$';
    (len > 0 && starts_token && !code[start].is_ascii_digit())
        .then(|| std::str::from_utf8(&code[at..start + len]).unwrap_or_default())
}

/// Every identifier of the code with its offset.
fn idents(code: &[u8]) -> impl Iterator<Item = (usize, &str)> {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < code.len() {
            // Most bytes start no identifier: skip them without a closer look.
            if (is_ident(code[i]) || code[i] == b'$')
                && let Some(word) = ident_at(code, i)
            {
                let at = i;
                i += word.len();
                return Some((at, word));
            }
            i += 1;
        }
        None
    })
}

// ---------------------------------------------------------------------------------------------
// Check 1: no import circle
// ---------------------------------------------------------------------------------------------

/// One `.rs` file of a crate as a module: where it sits in the module tree and what it names.
struct Module {
    /// Path relative to the crate's `src/`.
    rel: String,
    src: Source,
    /// The module that declares this one (by the file layout); `None` for a crate root.
    parent: Option<usize>,
    /// The folder, relative to `src/`, holding this module's child files.
    children_dir: String,
    /// Names this file defines (`struct`, `fn`, `mod`, `macro_rules!`…).
    defined: HashSet<String>,
    /// The modules this file declares in files of their own (`mod name;`).
    declared: HashSet<String>,
    /// Names this file's `use` declarations bring in, with the path each stands for.
    imports: HashMap<String, Vec<String>>,
    /// The paths of this file's glob imports (`use a::b::*`), without the `*`.
    globs: Vec<Vec<String>>,
    /// Every module path this file names: the offset, the segments, and whether a `pub use`
    /// names it (a re-export).
    paths: Vec<(usize, Vec<String>, bool)>,
    /// A test module kept in its own file (`#[cfg(test)] mod tests;`).
    test_only: bool,
}

/// A crate's module files and the file-to-file dependencies between them.
struct CrateGraph {
    /// The crate's `src/` relative to the repository root, for reports.
    label: String,
    modules: Vec<Module>,
    by_rel: HashMap<String, usize>,
    /// (from, to) → the offset in `from` of the first path that makes the dependency.
    edges: BTreeMap<(usize, usize), usize>,
}

impl CrateGraph {
    fn load(dir: &Path) -> CrateGraph {
        let mut graph = CrateGraph {
            label: relative(dir, &repo()),
            modules: Vec::new(),
            by_rel: HashMap::new(),
            edges: BTreeMap::new(),
        };
        for rel in rust_files(dir) {
            let src = Source::read(&dir.join(&rel));
            let module = Module::new(rel, src);
            graph.by_rel.insert(module.rel.clone(), graph.modules.len());
            graph.modules.push(module);
        }
        for index in 0..graph.modules.len() {
            graph.modules[index].parent = graph.parent_of(&graph.modules[index].rel);
        }
        for index in 0..graph.modules.len() {
            let module = &graph.modules[index];
            // The module's own name: `line` for `grid/line.rs`, `grid` for `grid/mod.rs`.
            let name = module.children_dir.rsplit('/').next().unwrap_or_default();
            let test_only =
                module.parent.is_some_and(|p| graph.modules[p].src.test_modules.iter().any(|t| t == name));
            graph.modules[index].test_only = test_only;
        }
        for index in 0..graph.modules.len() {
            graph.add_paths_of(index);
        }
        graph
    }

    /// The module file whose children live in `dir` (`""`: the crate root, `lib.rs` first).
    fn module_of_dir(&self, dir: &str) -> Option<usize> {
        let candidates = if dir.is_empty() {
            ["lib.rs".to_string(), "main.rs".to_string()]
        } else {
            [format!("{dir}.rs"), format!("{dir}/mod.rs")]
        };
        candidates.iter().find_map(|rel| self.by_rel.get(rel).copied())
    }

    fn parent_of(&self, rel: &str) -> Option<usize> {
        if rel == "lib.rs" || rel == "main.rs" {
            return None;
        }
        let dir = rel.rsplit_once('/').map_or("", |(dir, _)| dir);
        if rel.ends_with("/mod.rs") {
            self.module_of_dir(dir.rsplit_once('/').map_or("", |(up, _)| up))
        } else {
            // A file in `src/bin/` has no module above it: it is a crate root of its own.
            self.module_of_dir(dir)
        }
    }

    fn root_of(&self, mut index: usize) -> usize {
        while let Some(parent) = self.modules[index].parent {
            index = parent;
        }
        index
    }

    fn child(&self, index: usize, name: &str) -> Option<usize> {
        let dir = &self.modules[index].children_dir;
        let (file, folder) = if dir.is_empty() {
            (format!("{name}.rs"), format!("{name}/mod.rs"))
        } else {
            (format!("{dir}/{name}.rs"), format!("{dir}/{name}/mod.rs"))
        };
        self.by_rel.get(&file).or_else(|| self.by_rel.get(&folder)).copied()
    }

    /// The module file a path names, seen from module `from`: the deepest module file along the
    /// path, then, when the rest of the path is a name that file only imports, the file the name
    /// comes from (so that using an item re-exported by a `mod.rs` depends on the file defining
    /// it, not on the `mod.rs`). `None` for a path into another crate or to a local name.
    fn resolve(&self, from: usize, path: &[String], depth: usize) -> Option<usize> {
        let (first, mut rest) = path.split_first()?;
        let mut at = match first.as_str() {
            "crate" | "$crate" => self.root_of(from),
            "self" => from,
            "super" => {
                let mut at = self.modules[from].parent?;
                while rest.first().is_some_and(|s| s == "super") {
                    at = self.modules[at].parent?;
                    rest = &rest[1..];
                }
                at
            }
            name => self.child(from, name)?,
        };
        while let Some(next) = rest.first().and_then(|name| self.child(at, name)) {
            at = next;
            rest = &rest[1..];
        }
        let module = &self.modules[at];
        let Some(item) = rest.first() else { return Some(at) };
        if depth > 8 || module.defined.contains(item) {
            return Some(at);
        }
        if let Some(source) = module.imports.get(item) {
            let full: Vec<String> = source.iter().chain(&rest[1..]).cloned().collect();
            return self.resolve(at, &full, depth + 1);
        }
        let from_glob = module.globs.iter().find_map(|glob| {
            let full: Vec<String> = glob.iter().chain(rest).cloned().collect();
            self.resolve(at, &full, depth + 1).filter(|&t| self.modules[t].defined.contains(item))
        });
        Some(from_glob.unwrap_or(at))
    }

    fn add_paths_of(&mut self, index: usize) {
        if self.modules[index].test_only {
            return;
        }
        for (offset, path, reexport) in &self.modules[index].paths {
            // Re-exporting a descendant's items is the module's table of contents, not code that
            // uses them: `pub use cover::CoverRequest` in a `mod.rs` depends on nothing.
            if let Some(target) = self.resolve(index, path, 0)
                && target != index
                && !self.modules[target].test_only
                && !(*reexport && self.is_ancestor(index, target))
            {
                self.edges.entry((index, target)).or_insert(*offset);
            }
        }
    }

    fn is_ancestor(&self, ancestor: usize, mut index: usize) -> bool {
        while let Some(parent) = self.modules[index].parent {
            if parent == ancestor {
                return true;
            }
            index = parent;
        }
        false
    }

    /// Whether one of the two files is the other's parent module (a `mod.rs` and its children
    /// refer to each other as a matter of course: re-exports one way, `super::` the other).
    fn parent_child(&self, a: usize, b: usize) -> bool {
        self.modules[a].parent == Some(b) || self.modules[b].parent == Some(a)
    }

    /// The top-level module a file belongs to: `api` for `api/cover.rs` and `api.rs`.
    fn top_level(&self, index: usize) -> String {
        let rel = &self.modules[index].rel;
        match rel.split_once('/') {
            Some((folder, _)) => folder.to_string(),
            None if self.modules[index].parent.is_none() => rel.clone(),
            None => rel.trim_end_matches(".rs").to_string(),
        }
    }
}

impl Module {
    fn new(rel: String, src: Source) -> Module {
        let children_dir = match rel.as_str() {
            "lib.rs" | "main.rs" => String::new(),
            _ if rel.ends_with("/mod.rs") => rel.trim_end_matches("/mod.rs").to_string(),
            _ => rel.trim_end_matches(".rs").to_string(),
        };
        let mut module = Module {
            rel,
            src,
            parent: None,
            children_dir,
            defined: HashSet::new(),
            declared: HashSet::new(),
            imports: HashMap::new(),
            globs: Vec::new(),
            paths: Vec::new(),
            test_only: false,
        };
        // One pass over the identifiers serves every reading below.
        let words: Vec<(usize, usize)> =
            idents(&module.src.code).map(|(at, word)| (at, word.len())).collect();
        module.read_definitions(&words);
        module.read_paths(&words);
        module
    }

    fn read_definitions(&mut self, words: &[(usize, usize)]) {
        const DEFINING: [&[u8]; 10] = [
            b"struct",
            b"enum",
            b"union",
            b"trait",
            b"type",
            b"fn",
            b"const",
            b"static",
            b"mod",
            b"macro_rules",
        ];
        let code = &self.src.code;
        let word = |&(at, len): &(usize, usize)| &code[at..at + len];
        let name = |pair: &[(usize, usize)]| String::from_utf8_lossy(word(&pair[1])).into_owned();
        let defining = words.windows(2).filter(|pair| DEFINING.contains(&word(&pair[0])));
        self.defined = defining.clone().map(name).collect();
        // `mod name;`, not `mod name { … }`: a child module in a file of its own.
        let in_file = |pair: &&[(usize, usize)]| {
            let (at, len) = pair[1];
            word(&pair[0]) == b"mod" && code.get(skip_space(code, at + len)) == Some(&b';')
        };
        self.declared = defining.filter(in_file).map(name).collect();
    }

    /// Collects the module paths named by `use` declarations, by paths in code, and by strings
    /// that are a whole path (`deserialize_with = "crate::capped::walls"`).
    fn read_paths(&mut self, words: &[(usize, usize)]) {
        let mut code = self.src.code.clone();
        let uses: Vec<usize> =
            words.iter().filter(|&&(at, len)| &code[at..at + len] == b"use").map(|&(at, _)| at).collect();
        for at in uses {
            let Some(end) = find(&code, b";", at + 3) else { continue };
            // `pub use`, `pub(crate) use`, `#[doc(inline)] pub use`: the words since the last item.
            let item_start = code[..at].iter().rposition(|b| b";{}".contains(b)).map_or(0, |i| i + 1);
            let public = code[item_start..at].split(|&b| !is_ident(b)).any(|word| word == b"pub");
            for (offset, path, alias) in use_tree(&code, at + 3..end) {
                self.add_use(offset, path, alias, public);
            }
            // The declaration is read: the scan of inline paths below must not read it again.
            blank(&mut code, at..end);
        }
        let inline: Vec<(usize, Vec<String>, bool)> = words
            .iter()
            .filter_map(|&(at, len)| std::str::from_utf8(&code[at..at + len]).ok().map(|word| (at, word)))
            .filter(|&(at, word)| self.starts_path(&code, at, word))
            .filter_map(|(at, _)| inline_path(&code, at).map(|path| (at, path, false)))
            .collect();
        self.paths.extend(inline);
        for (at, text) in &self.src.strings {
            let path: Vec<String> = text.split("::").map(str::to_string).collect();
            let is_path = path.len() > 1 && path.iter().all(|s| !s.is_empty() && s.bytes().all(is_ident));
            if is_path && matches!(path[0].as_str(), "crate" | "super" | "self") {
                self.paths.push((*at, path, false));
            }
        }
    }

    fn add_use(&mut self, offset: usize, mut path: Vec<String>, alias: Option<String>, public: bool) {
        if path.last().is_some_and(|s| s == "*") {
            path.pop();
            self.globs.push(path.clone());
        } else {
            if path.last().is_some_and(|s| s == "self") {
                path.pop();
            }
            let name = alias.or_else(|| path.last().cloned());
            if let Some(name) = name.filter(|name| name != "_") {
                self.imports.insert(name, path.clone());
            }
        }
        self.paths.push((offset, path, public));
    }

    /// Whether the word at `at` starts a path into this crate: `crate::`, `super::`, `self::`,
    /// `$crate::`, or `child::` for a child module — not the middle of another crate's path, and
    /// not the `in crate::…` of a `pub(in …)`.
    fn starts_path(&self, code: &[u8], at: usize, word: &str) -> bool {
        let local = matches!(word, "crate" | "$crate" | "super" | "self")
            || word.bytes().next().is_some_and(|b| b.is_ascii_lowercase()) && self.declared.contains(word);
        let after_colons = at >= 2 && &code[at - 2..at] == b"::";
        let before = code[..at].trim_ascii_end();
        let after_in = before.ends_with(b" in") || before.ends_with(b"(in");
        local && !after_colons && !after_in && code[at + word.len()..].starts_with(b"::")
    }
}

/// The path starting at `at`: identifiers joined by `::`, without a trailing macro name (`wire!`).
fn inline_path(code: &[u8], at: usize) -> Option<Vec<String>> {
    let mut path = Vec::new();
    let mut i = at;
    while let Some(word) = ident_at(code, i) {
        path.push(word.to_string());
        i += word.len();
        if !code[i..].starts_with(b"::") {
            break;
        }
        i += 2;
    }
    if code.get(i) == Some(&b'!') {
        path.pop();
    }
    (path.len() > 1).then_some(path)
}

/// The leaves of a `use` tree (`a::{b, c::{self, d as e}, f::*}`): offset, path, alias.
fn use_tree(code: &[u8], body: Range<usize>) -> Vec<(usize, Vec<String>, Option<String>)> {
    let mut tokens = Vec::new();
    let mut i = body.start;
    while i < body.end {
        if let Some(word) = ident_at(code, i) {
            tokens.push((i, word.to_string()));
            i += word.len();
        } else if code[i..].starts_with(b"::") {
            tokens.push((i, "::".to_string()));
            i += 2;
        } else {
            if matches!(code[i], b'{' | b'}' | b',' | b'*') {
                tokens.push((i, char::from(code[i]).to_string()));
            }
            i += 1;
        }
    }
    let mut leaves = Vec::new();
    // `use ::std::…` has a leading `::`.
    let mut at = usize::from(tokens.first().is_some_and(|(_, t)| t == "::"));
    use_subtree(&tokens, &mut at, Vec::new(), &mut leaves);
    leaves
}

fn use_subtree(
    tokens: &[(usize, String)],
    at: &mut usize,
    mut prefix: Vec<String>,
    leaves: &mut Vec<(usize, Vec<String>, Option<String>)>,
) {
    while let Some((offset, token)) = tokens.get(*at) {
        *at += 1;
        match token.as_str() {
            "{" => {
                while tokens.get(*at).is_some_and(|(_, t)| t != "}") {
                    use_subtree(tokens, at, prefix.clone(), leaves);
                    if tokens.get(*at).is_some_and(|(_, t)| t == ",") {
                        *at += 1;
                    }
                }
                *at += 1;
                return;
            }
            "*" => {
                prefix.push("*".to_string());
                leaves.push((*offset, prefix, None));
                return;
            }
            "," | "}" | "::" => {
                *at -= 1;
                return;
            }
            word => {
                prefix.push(word.to_string());
                if tokens.get(*at).is_some_and(|(_, t)| t == "::") {
                    *at += 1;
                    continue;
                }
                let alias = if tokens.get(*at).is_some_and(|(_, t)| t == "as") {
                    *at += 2;
                    tokens.get(*at - 1).map(|(_, t)| t.clone())
                } else {
                    None
                };
                leaves.push((*offset, prefix, alias));
                return;
            }
        }
    }
}

/// Tarjan's strongly connected components of a graph on `0..n`.
fn components(n: usize, edges: &BTreeSet<(usize, usize)>) -> Vec<Vec<usize>> {
    struct Walk {
        next: Vec<Vec<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        counter: usize,
        found: Vec<Vec<usize>>,
    }
    fn visit(walk: &mut Walk, v: usize) {
        walk.index[v] = Some(walk.counter);
        walk.low[v] = walk.counter;
        walk.counter += 1;
        walk.stack.push(v);
        walk.on_stack[v] = true;
        for w in walk.next[v].clone() {
            match walk.index[w] {
                None => {
                    visit(walk, w);
                    walk.low[v] = walk.low[v].min(walk.low[w]);
                }
                Some(index) if walk.on_stack[w] => walk.low[v] = walk.low[v].min(index),
                Some(_) => {}
            }
        }
        if Some(walk.low[v]) == walk.index[v] {
            let mut component = Vec::new();
            while let Some(w) = walk.stack.pop() {
                walk.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            walk.found.push(component);
        }
    }
    let mut next = vec![Vec::new(); n];
    for &(from, to) in edges {
        next[from].push(to);
    }
    let mut walk = Walk {
        next,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        counter: 0,
        found: Vec::new(),
    };
    for v in 0..n {
        if walk.index[v].is_none() {
            visit(&mut walk, v);
        }
    }
    walk.found
}

/// The cycles of a graph that take at least one edge `excused` does not excuse: for each such
/// edge `a → b`, the shortest way back from `b` to `a` closes one. Each cycle comes once, rotated
/// to start at its smallest node.
fn cycles(
    n: usize,
    edges: &BTreeSet<(usize, usize)>,
    excused: impl Fn(usize, usize) -> bool,
) -> Vec<Vec<usize>> {
    let mut component_of = vec![0; n];
    for (c, members) in components(n, edges).iter().enumerate() {
        for &v in members {
            component_of[v] = c;
        }
    }
    let mut found = BTreeSet::new();
    for &(a, b) in edges {
        if a == b || component_of[a] != component_of[b] || excused(a, b) {
            continue;
        }
        // Breadth first from b back to a, inside the component.
        let mut came_from = vec![None; n];
        let mut queue = VecDeque::from([b]);
        came_from[b] = Some(b);
        while let Some(v) = queue.pop_front() {
            if v == a {
                break;
            }
            let onward = edges.range((v, 0)..(v + 1, 0)).map(|&(_, w)| w);
            for w in onward.filter(|&w| component_of[w] == component_of[a]) {
                if came_from[w].is_none() {
                    came_from[w] = Some(v);
                    queue.push_back(w);
                }
            }
        }
        let mut cycle = vec![a];
        let mut v = a;
        while v != b {
            v = came_from[v].expect("a and b share a component");
            cycle.push(v);
        }
        cycle.reverse();
        // Now b … a; the edge a → b closes it. Rotate to the smallest node for one spelling.
        let smallest = (0..cycle.len()).min_by_key(|&i| cycle[i]).unwrap_or(0);
        cycle.rotate_left(smallest);
        found.insert(cycle);
    }
    found.into_iter().collect()
}

/// No import circle of files, nor of top-level folders, in any crate.
///
/// A circle makes its files one unit that can only be understood, tested and moved together, and
/// the restructuring into crates needs units that can move alone. The test reads every module
/// path a file names: `use` declarations (grouped and nested braces too, `self`, `as`, globs),
/// paths in code (`crate::a::b::f(`, `super::x::y`, `$crate::…`, `child::…` for a declared child
/// module) and strings that are a whole path (`deserialize_with = "crate::capped::walls"`), never
/// comments nor `#[cfg(test)]` items (test code may use anything). A path names the deepest
/// module file along it (`a/b.rs`, else `a.rs` or `a/mod.rs`); when the rest of the path is a
/// name that file merely imports (`pub use cover::CoverRequest` in a `mod.rs`), the dependency
/// is on the file the name comes from, so a `mod.rs` re-exporting its children is no hub that
/// every user of a child goes through.
///
/// A `mod.rs` and its own child file referring to each other (re-exports down, `super::` up) is
/// how Rust modules are written: a circle of only such parent↔child edges is not reported, but a
/// circle with any other edge is (a sibling's, or a grandchild's `crate::AppState` into a
/// `lib.rs` that also uses the grandchild), with each edge's `file:line`. A `pub use` of a
/// descendant's items makes no edge at all: it is the module's table of contents, not code that
/// uses them. Each circle is reported once: for each edge that is not parent↔child, the shortest
/// way back closes one. The folder level collapses files to their top-level module
/// (`api/cover.rs` and `api.rs` → `api`; the crate root is its own node, and its edges to
/// top-level modules count as parent↔child).
#[test]
fn no_import_circle() {
    let mut offenders = Vec::new();
    for dir in crate_sources() {
        let graph = CrateGraph::load(&dir);
        let file_edges: BTreeSet<(usize, usize)> = graph.edges.keys().copied().collect();
        for cycle in cycles(graph.modules.len(), &file_edges, |a, b| graph.parent_child(a, b)) {
            let names: Vec<&str> = cycle.iter().map(|&i| graph.modules[i].rel.as_str()).collect();
            offenders.push(format!("{}: files {} → {}", graph.label, names.join(" → "), names[0]));
            for (i, &from) in cycle.iter().enumerate() {
                let to = cycle[(i + 1) % cycle.len()];
                let at = graph.edges[&(from, to)];
                offenders.push(format!(
                    "    {} uses {}",
                    graph.modules[from].src.at(at),
                    graph.modules[to].rel
                ));
            }
        }
        offenders.extend(folder_cycles(&graph));
    }
    assert_none("import circles", &offenders);
}

fn folder_cycles(graph: &CrateGraph) -> Vec<String> {
    let tops: Vec<String> = (0..graph.modules.len()).map(|i| graph.top_level(i)).collect();
    let names: Vec<&String> = tops.iter().collect::<BTreeSet<_>>().into_iter().collect();
    let node = |name: &String| names.binary_search(&name).expect("a top-level node");
    let root = graph.module_of_dir("").map(|i| node(&tops[i]));
    // (from, to) → the first file edge making it.
    let mut evidence: BTreeMap<(usize, usize), (usize, usize)> = BTreeMap::new();
    for (&(from, to), &at) in &graph.edges {
        let (a, b) = (node(&tops[from]), node(&tops[to]));
        if a != b && !graph.modules[from].test_only {
            evidence.entry((a, b)).or_insert((from, at));
        }
    }
    let edges: BTreeSet<(usize, usize)> = evidence.keys().copied().collect();
    let mut offenders = Vec::new();
    for cycle in cycles(names.len(), &edges, |a, b| Some(a) == root || Some(b) == root) {
        let shown: Vec<&str> = cycle.iter().map(|&i| names[i].as_str()).collect();
        offenders.push(format!("{}: folders {} → {}", graph.label, shown.join(" → "), shown[0]));
        for (i, &a) in cycle.iter().enumerate() {
            let b = cycle[(i + 1) % cycle.len()];
            let (file, at) = evidence[&(a, b)];
            offenders.push(format!("    {} uses {}", graph.modules[file].src.at(at), names[b]));
        }
    }
    offenders
}

// ---------------------------------------------------------------------------------------------
// Check 2: no long function
// ---------------------------------------------------------------------------------------------

/// The longest a function may be, from its `fn` line to its closing brace.
const MAX_FUNCTION_LINES: usize = 100;

/// No function of any crate's `src/` is over 100 lines (test code aside).
///
/// A function that does not fit on a screen or two does several things; naming them is what
/// makes the rules engine and the handlers reviewable. The length runs from the line of `fn name`
/// to the line of the brace closing its body, braces matched with comments, strings (raw ones
/// too) and char literals blanked out, so neither `'{'` nor a lifetime `'a` nor a `}` in a string
/// or comment counts. A nested function counts on its own and within its host.
#[test]
fn no_long_function() {
    let mut long = Vec::new();
    for dir in crate_sources() {
        let graph = CrateGraph::load(&dir);
        for module in graph.modules.iter().filter(|module| !module.test_only) {
            for (at, name, lines) in functions(&module.src) {
                if lines > MAX_FUNCTION_LINES {
                    long.push((lines, format!("{}: fn {name} is {lines} lines", module.src.at(at))));
                }
            }
        }
    }
    // Longest first: the worst offenders lead the list.
    long.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let offenders: Vec<String> = long.into_iter().map(|(_, line)| line).collect();
    assert_none(&format!("functions over {MAX_FUNCTION_LINES} lines"), &offenders);
}

/// Every function with a body: the offset of its `fn`, its name, its length in lines.
fn functions(src: &Source) -> Vec<(usize, String, usize)> {
    let code = &src.code;
    idents(code)
        .filter(|&(_, word)| word == "fn")
        .filter_map(|(at, _)| {
            // `fn(u8) -> u8` is a pointer type, not a function: a name must follow.
            let name_at = skip_space(code, at + 2);
            let name = ident_at(code, name_at).filter(|_| name_at > at + 2)?;
            let (end, has_body) = item_end(code, name_at)?;
            has_body.then(|| (at, name.to_string(), src.line(end) - src.line(at) + 1))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Check 3: the codemap
// ---------------------------------------------------------------------------------------------

/// Every source file and folder is named in ARCHITECTURE.md, the codemap.
///
/// The codemap is how a newcomer finds their way; a file it does not name is a file nobody was
/// told about. The rule: a file is named when its file name (`cover.rs`) appears in
/// ARCHITECTURE.md as a whole word, a folder when its name with a trailing slash does (`api/`).
/// "Whole word" means not glued to a longer name: the character before is not a letter, digit,
/// `_`, `-` or `.` (a `/` is fine, so `api/cover.rs` names `cover.rs` and `grid/line/` names
/// `line/`), and for a file the character after is not a letter, digit, `_` or `-`. The rule
/// is deliberately simple: it catches what the codemap never mentions, not a mention in the
/// wrong place (one `mod.rs` in the text names them all).
///
/// Checked: every `.rs` file and folder under `src/` (`src/bin` included), `crates/*/src`,
/// `crates/*/benches` and `crates/*/examples`, the non-Rust files directly in `src/playground`,
/// and each crate's own folder (`crates/rules/` names `rules/`). Test code is skipped: folders
/// named `tests` and files named `tests.rs`.
#[test]
fn every_source_is_in_the_codemap() {
    let root = repo();
    let doc = fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut items = Vec::new();
    let mut trees = vec![root.join("src")];
    for dir in crate_dirs() {
        let name = dir.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        items.push((relative(&dir, &root), format!("{name}/")));
        trees.extend(["src", "benches", "examples"].map(|sub| dir.join(sub)));
    }
    for tree in trees {
        let mut pending = vec![tree];
        while let Some(dir) = pending.pop() {
            for path in sorted_entries(&dir) {
                let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                if name == "tests" || name == "tests.rs" {
                    continue;
                }
                let in_playground = dir.ends_with("src/playground");
                if path.is_dir() {
                    items.push((relative(&path, &root), format!("{name}/")));
                    pending.push(path);
                } else if path.extension().is_some_and(|ext| ext == "rs") || in_playground {
                    items.push((relative(&path, &root), name));
                }
            }
        }
    }
    let mut offenders: Vec<String> = items
        .into_iter()
        .filter_map(|(shown, name)| {
            (!mentions(&doc, &name)).then(|| format!("{shown}: `{name}` is not in ARCHITECTURE.md"))
        })
        .collect();
    offenders.sort();
    assert_none("sources missing from the codemap", &offenders);
}

/// Whether `doc` names `name` as a whole word (see `every_source_is_in_the_codemap`).
fn mentions(doc: &str, name: &str) -> bool {
    let bytes = doc.as_bytes();
    let glued_before = |b: u8| is_ident(b) || b == b'-' || b == b'.';
    doc.match_indices(name).any(|(at, _)| {
        let before_ok = at == 0 || !glued_before(bytes[at - 1]);
        let after = bytes.get(at + name.len()).copied();
        let after_ok = name.ends_with('/') || !after.is_some_and(|b| is_ident(b) || b == b'-');
        before_ok && after_ok
    })
}

// ---------------------------------------------------------------------------------------------
// Check 4: the library crates know no HTTP
// ---------------------------------------------------------------------------------------------

/// The crates that must stay free of any HTTP machinery.
const LIBRARIES: [&str; 4] = ["arbiter-contract", "arbiter-import", "arbiter-draw", "arbiter-rules"];

/// The HTTP stack: what only the server may depend on.
const HTTP: [&str; 7] = ["axum", "tokio", "hyper", "hyper-util", "tower", "tower-http", "http"];

/// The library crates (contract, import, draw, rules) depend on no HTTP crate, not even
/// transitively.
///
/// They are the rules and the wire contract, usable by any front end (a CLI, a WASM build, a
/// test); the server alone speaks HTTP. The closure is computed from Cargo.lock, which records
/// each package's dependencies without saying which are dev-dependencies: a library's
/// dev-dependencies count too, which is what we want anyway (they must be HTTP-free as well, or
/// a library's tests would drag a web stack in). A library not yet in Cargo.lock is skipped with
/// a note on stderr.
#[test]
fn libraries_know_no_http() {
    let lock = fs::read_to_string(repo().join("Cargo.lock")).expect("Cargo.lock");
    let packages = lock_packages(&lock);
    let mut offenders = Vec::new();
    for library in LIBRARIES {
        let Some(start) = packages.iter().position(|p| p.name == library) else {
            eprintln!("note: {library} is not in Cargo.lock yet; not checked");
            continue;
        };
        // Breadth first, remembering the way in, so that an offender comes with its chain.
        let mut came_from: HashMap<usize, usize> = HashMap::from([(start, start)]);
        let mut queue = VecDeque::from([start]);
        while let Some(at) = queue.pop_front() {
            for next in packages[at].dependencies.iter().filter_map(|dep| find_package(&packages, dep)) {
                if came_from.contains_key(&next) {
                    continue;
                }
                came_from.insert(next, at);
                queue.push_back(next);
                if HTTP.contains(&packages[next].name.as_str()) {
                    let mut chain = vec![packages[next].label()];
                    let mut v = next;
                    while v != start {
                        v = came_from[&v];
                        chain.push(packages[v].label());
                    }
                    chain.reverse();
                    offenders.push(format!("Cargo.lock: {}", chain.join(" → ")));
                }
            }
        }
    }
    assert_none("library crates depending on HTTP crates", &offenders);
}

/// One `[[package]]` of Cargo.lock.
struct Package {
    name: String,
    version: String,
    /// Entries as written: `"name"` or `"name version"` (or `"name version (source)"`).
    dependencies: Vec<String>,
}

impl Package {
    fn label(&self) -> String {
        format!("{} {}", self.name, self.version)
    }
}

/// The packages of a Cargo.lock: only `name`, `version` and `dependencies` are read.
fn lock_packages(lock: &str) -> Vec<Package> {
    let quoted = |line: &str| line.split('"').nth(1).map(str::to_string);
    let mut packages: Vec<Package> = Vec::new();
    let mut in_dependencies = false;
    for line in lock.lines().map(str::trim) {
        if line == "[[package]]" {
            packages.push(Package { name: String::new(), version: String::new(), dependencies: Vec::new() });
            in_dependencies = false;
            continue;
        }
        let Some(package) = packages.last_mut() else { continue };
        if in_dependencies || line.starts_with("dependencies = [") {
            let list = line.trim_start_matches("dependencies = [");
            package.dependencies.extend(list.split(',').filter_map(quoted));
            in_dependencies = !line.ends_with(']');
        } else if let Some(value) = line.strip_prefix("name = ") {
            package.name = quoted(value).unwrap_or_default();
        } else if let Some(value) = line.strip_prefix("version = ") {
            package.version = quoted(value).unwrap_or_default();
        } else if line.starts_with('[') {
            // `[metadata]` and the like end the packages.
            in_dependencies = false;
        }
    }
    packages
}

/// The package a dependency entry names: by name alone when it is the only one of that name.
fn find_package(packages: &[Package], entry: &str) -> Option<usize> {
    let mut words = entry.split_whitespace();
    let name = words.next()?;
    let version = words.next();
    packages.iter().position(|p| p.name == name && version.is_none_or(|v| v == p.version))
}

// ---------------------------------------------------------------------------------------------
// The reader itself
// ---------------------------------------------------------------------------------------------

/// The reader blanks what must not count (comments, literals, test items) and keeps what must:
/// a wrong reader would make the checks above pass or fail for nothing.
#[test]
fn the_reader_sees_only_code() {
    let text = "fn a<'x>(s: &'x str) -> char { '{' } // }\n\
                /* { /* } */ */ const R: &str = r#\"}\"#;\n\
                #[cfg(test)]\nmod tests { use crate::z; }\n\
                #[serde(with = \"crate::capped::walls\")] fn b() { crate::c::d(); }\n";
    let (mut code, strings) = lex(text);
    let test_modules = blank_test_items(&mut code);
    let kept = String::from_utf8_lossy(&code);
    assert!(test_modules.contains(&"tests".to_string()));
    assert!(!kept.contains("crate::z") && kept.contains("crate::c::d"));
    assert_eq!(kept.matches('{').count(), kept.matches('}').count());
    assert!(strings.iter().any(|(_, s)| s == "crate::capped::walls"));
    let leaves = use_tree(b"crate::{a::{self, b as c}, d::*}", 0..32);
    let paths: Vec<String> = leaves.iter().map(|(_, path, _)| path.join("::")).collect();
    assert_eq!(paths, ["crate::a::self", "crate::a::b", "crate::d::*"]);
    assert_eq!(leaves[1].2.as_deref(), Some("c"));
}
