//! The comparison is on LLVM IR, each copy put in a canonical form ([`Module::canonical`]):
//! its own name, the names of the functions it owns (closures compiled out of line) and of the
//! private constants it reads become numbers in order of first use, and each is followed by
//! its definition, so that a constant compares by content; local value names are numbered per
//! function; metadata attachments and attribute groups are dropped (they annotate, they do not
//! compute: ranges and aliasing facts that hold for both). The one content rewritten is a
//! panic's source location (`core::panic::Location`, a constant of a file name, a line and a
//! column): every copy sits at another line, and the worker compares panics as panics,
//! whatever their message and location ([`ferastrau_sdk`'s `Outcome::same_as`]), so a mutant
//! that only moves where a panic is reported panics in the same runs as the original.
//! Equal canonical forms to the original's copy: **equivalent**; else equal to a
//! lower-numbered mutant's copy of the same function: **duplicate** of the lowest such.

use std::collections::{HashMap, HashSet, VecDeque};

use super::owned_by;

/// One LLVM IR module, read as far as the comparison needs: each global's definition by name.
pub(crate) struct Module<'t> {
    /// Functions (`define ... { ... }`) and globals and aliases (one line each), by name.
    defs: HashMap<&'t str, Def<'t>>,
    /// Named struct types (`%T = type ...`): never renamed.
    types: HashSet<&'t str>,
}

#[derive(Clone, Copy)]
enum Def<'t> {
    Function(&'t str),
    /// A private or internal constant: compared by content.
    Constant(&'t str),
    /// `@a = ... alias ..., ptr @b`: the aliasee.
    Alias(&'t str),
    /// Anything else (a static): compared by name.
    Other,
}

impl<'t> Module<'t> {
    pub(crate) fn parse(text: &'t str) -> Module<'t> {
        let mut defs = HashMap::new();
        let mut types = HashSet::new();
        let mut lines = text.lines().peekable();
        let offset_of = |line: &str| line.as_ptr() as usize - text.as_ptr() as usize;
        while let Some(line) = lines.next() {
            if line.starts_with("define ") {
                let start = offset_of(line);
                let mut end = start + line.len();
                for body in lines.by_ref() {
                    end = offset_of(body) + body.len();
                    if body == "}" {
                        break;
                    }
                }
                if let Some(name) = defined_name(line) {
                    defs.insert(name, Def::Function(&text[start..end]));
                }
            } else if let Some(rest) = line.strip_prefix('@') {
                let (name, len) = name_at(rest);
                let after = rest[len..].trim_start_matches(" = ");
                let def = if after.contains(" alias ") || after.starts_with("alias ") {
                    match after.rsplit_once(" @") {
                        Some((_, target)) => Def::Alias(name_at(target).0),
                        None => Def::Other,
                    }
                } else if (after.starts_with("private ") || after.starts_with("internal "))
                    && after.contains(" constant ")
                {
                    Def::Constant(line)
                } else {
                    Def::Other
                };
                defs.insert(name, def);
            } else if let Some(rest) = line.strip_prefix('%') {
                let (name, len) = name_at(rest);
                if rest[len..].starts_with(" = type ") {
                    types.insert(name);
                }
            }
        }
        Module { defs, types }
    }

    /// The canonical form of the function `symbol` (see the module's documentation), `None`
    /// when the module has no such function.
    pub(crate) fn canonical(&self, symbol: &str) -> Option<String> {
        let mut root = symbol;
        // LLVM's function merging may have made the copy an alias of an equal function (of
        // another copy): its code is the aliasee's.
        let mut hops = 0;
        while let Some(Def::Alias(to)) = self.defs.get(root) {
            root = to;
            hops += 1;
            if hops > 16 {
                return None;
            }
        }
        let Some(Def::Function(_)) = self.defs.get(root) else {
            return None;
        };
        let mut numbers: HashMap<&str, usize> = HashMap::from([(root, 0)]);
        let mut queue = VecDeque::from([root]);
        let mut out = String::new();
        while let Some(name) = queue.pop_front() {
            let text = match self.defs.get(name) {
                Some(Def::Function(t)) | Some(Def::Constant(t)) => *t,
                _ => continue,
            };
            let number = numbers[name];
            out.push_str(&format!("; @{number}\n"));
            let mut local = |g: &'t str| -> Option<usize> {
                let is_local = owned_by(g, root)
                    && matches!(self.defs.get(g), Some(Def::Function(_)))
                    || matches!(self.defs.get(g), Some(Def::Constant(_)));
                if !is_local {
                    return None;
                }
                let next = numbers.len();
                Some(*numbers.entry(g).or_insert_with(|| {
                    queue.push_back(g);
                    next
                }))
            };
            let rendered = self.render(text, &mut local);
            match self.is_location(text) {
                true => out.push_str(&location_free(&rendered)),
                false => out.push_str(&rendered),
            }
            out.push('\n');
        }
        Some(out)
    }

    /// Whether the constant definition `text` has a panic location's shape and points at a
    /// Rust source file's name (see [`location_free`]).
    pub(super) fn is_location(&self, text: &str) -> bool {
        const HEAD: &str = "<{ ptr, [16 x i8] }> <{ ptr @";
        let Some(at) = text.find(HEAD) else {
            return false;
        };
        let (file, _) = name_at(&text[at + HEAD.len()..]);
        match self.defs.get(file) {
            Some(Def::Constant(f)) => f.rsplit_once(" c\"").is_some_and(|(_, tail)| {
                tail.split('"').next().is_some_and(|n| n.ends_with(".rs"))
            }),
            _ => false,
        }
    }

    /// `text` with global names replaced where `local` numbers them, local value names
    /// numbered in order of appearance, metadata attachments and attribute groups dropped.
    fn render(&self, text: &'t str, local: &mut dyn FnMut(&'t str) -> Option<usize>) -> String {
        let mut out = String::with_capacity(text.len());
        let mut values: HashMap<&str, usize> = HashMap::new();
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            match c {
                b'"' => {
                    let end = string_end(bytes, i);
                    out.push_str(&text[i..end]);
                    i = end;
                }
                b'@' => {
                    let (name, len) = name_at(&text[i + 1..]);
                    match local(name) {
                        Some(n) => out.push_str(&format!("@g{n}")),
                        None => {
                            out.push('@');
                            out.push_str(name);
                        }
                    }
                    i += 1 + len;
                }
                b'%' => {
                    let (name, len) = name_at(&text[i + 1..]);
                    if self.types.contains(name) || name.is_empty() {
                        out.push('%');
                        out.push_str(name);
                    } else {
                        let next = values.len();
                        let n = *values.entry(name).or_insert(next);
                        out.push_str(&format!("%v{n}"));
                    }
                    i += 1 + len;
                }
                b'#' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                    i += 1;
                    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                        i += 1;
                    }
                }
                b'!' => {
                    // An attachment `, !name !N` or `, !name !{...}` (the comma already
                    // written is taken back), or a bare `!N`.
                    let (name, len) = name_at(&text[i + 1..]);
                    let mut j = i + 1 + len;
                    if !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) {
                        if text[j..].starts_with(" !") {
                            j += 2;
                            if bytes.get(j) == Some(&b'{') {
                                let mut depth = 0;
                                while j < bytes.len() {
                                    match bytes[j] {
                                        b'{' => depth += 1,
                                        b'}' => {
                                            depth -= 1;
                                            if depth == 0 {
                                                j += 1;
                                                break;
                                            }
                                        }
                                        _ => {}
                                    }
                                    j += 1;
                                }
                            } else {
                                j += name_at(&text[j..]).1;
                            }
                        }
                        if out.ends_with(", ") {
                            out.truncate(out.len() - 2);
                        }
                    }
                    i = j;
                }
                _ => {
                    out.push(c as char);
                    i += 1;
                }
            }
        }
        out
    }
}

/// The name a `define` line defines.
fn defined_name(line: &str) -> Option<&str> {
    let at = line.find(" @")?;
    Some(name_at(&line[at + 2..]).0)
}

/// An LLVM name at the start of `s` (after its sigil): quoted, or the longest run of name
/// characters; with the bytes it takes.
fn name_at(s: &str) -> (&str, usize) {
    if s.starts_with('"') {
        let end = string_end(s.as_bytes(), 0);
        return (&s[..end], end);
    }
    let len = s
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || b"._$-".contains(b))
        .count();
    (&s[..len], len)
}

/// The end (exclusive) of the string literal opening at `start`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut j = start + 1;
    while j < bytes.len() && bytes[j] != b'"' {
        j += 1;
    }
    (j + 1).min(bytes.len())
}

/// A constant's rendering with the line and column of a panic location zeroed: a
/// `core::panic::Location` is a constant `<{ ptr, [16 x i8] }> <{ ptr @file, [16 x i8]
/// c"<length, 8 bytes><line, 4><column, 4>" }>` (the file name's pointer and length, then two
/// `u32`s) whose first field points at the crate's file (a constant of its own, numbered by
/// then). Only constants of that exact shape are touched.
fn location_free(rendered: &str) -> String {
    const HEAD: &str = "<{ ptr, [16 x i8] }> <{ ptr @g";
    let Some(at) = rendered.find(HEAD) else {
        return rendered.to_string();
    };
    let Some(c_at) = rendered[at..].find(", [16 x i8] c\"").map(|k| at + k + 14) else {
        return rendered.to_string();
    };
    let Some(close) = rendered[c_at..].find('"').map(|k| c_at + k) else {
        return rendered.to_string();
    };
    let bytes = c_bytes(&rendered[c_at..close]);
    if bytes.len() != 16 || !rendered[close..].starts_with("\" }>") {
        return rendered.to_string();
    }
    let len = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
    format!(
        "{}location(len {len}){}",
        &rendered[..c_at - 1],
        &rendered[close + 1..]
    )
}

/// The bytes of an LLVM `c"..."` string's contents (`\XX` escapes).
fn c_bytes(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 3 <= b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}
