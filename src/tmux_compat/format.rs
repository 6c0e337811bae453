//! tmux's format language (`-F`, `display -p`): `#{variable}`, the
//! one-letter shorthands (`#S #I #P #W #T #D #H #h #F ##`), conditionals
//! `#{?cond,a,b}`, comparisons `#{==:a,b}` `#{!=:…}` `#{<:…}` `#{||:…}`
//! `#{&&:…}`, `#{m:pattern,text}`, truncation `#{=N:…}` / `#{=-N:…}`,
//! substitution `#{s/re/with/:…}`, and the modifiers `l:` (literal), `b:`
//! `d:` (basename, dirname), `n:` (length), `q:` (quoted), `t:` (time),
//! `E:` (expand again), `e|op|:a,b` (arithmetic). A variable nobody knows
//! is empty, as in tmux.

/// Where variables' values come from.
pub trait Lookup {
    fn get(&self, name: &str) -> Option<String>;
}

/// Expands `template`.
pub fn expand(template: &str, vars: &dyn Lookup) -> String {
    expand_depth(template, vars, 0)
}

/// Nested `E:` is bounded: a value cannot expand itself forever.
const MAX_DEPTH: usize = 10;

fn expand_depth(template: &str, vars: &dyn Lookup, depth: usize) -> String {
    let chars: Vec<char> = template.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c != '#' || i + 1 == chars.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let next = chars[i + 1];
        match next {
            '{' => {
                let Some(end) = closing(&chars, i + 2) else {
                    out.extend(&chars[i..]);
                    break;
                };
                let inner: String = chars[i + 2..end].iter().collect();
                out.push_str(&directive(&inner, vars, depth));
                i = end + 1;
            }
            '#' | ',' | '}' => {
                out.push(next);
                i += 2;
            }
            short => {
                let name = match short {
                    'S' => Some("session_name"),
                    'I' => Some("window_index"),
                    'P' => Some("pane_index"),
                    'W' => Some("window_name"),
                    'T' => Some("pane_title"),
                    'D' => Some("pane_id"),
                    'H' => Some("host"),
                    'h' => Some("host_short"),
                    'F' => Some("window_flags"),
                    _ => None,
                };
                match name {
                    Some(name) => out.push_str(&vars.get(name).unwrap_or_default()),
                    None => {
                        out.push('#');
                        out.push(short);
                    }
                }
                i += 2;
            }
        }
    }
    out
}

/// The index of the `}` closing a `#{` whose body starts at `from`.
fn closing(chars: &[char], from: usize) -> Option<usize> {
    let mut depth = 0;
    let mut i = from;
    while i < chars.len() {
        match chars[i] {
            '#' if chars.get(i + 1) == Some(&'{') => {
                depth += 1;
                i += 2;
                continue;
            }
            '#' if matches!(chars.get(i + 1), Some('}' | ',' | '#')) => {
                i += 2;
                continue;
            }
            '{' => depth += 1,
            '}' if depth == 0 => return Some(i),
            '}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Splits `text` on top-level commas (not inside `#{…}` or `{…}`).
fn split_commas(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '#' if matches!(chars.get(i + 1), Some(',' | '}' | '#')) && depth == 0 => {
                current.push(c);
                current.push(chars[i + 1]);
                i += 2;
                continue;
            }
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                i += 1;
                continue;
            }
            _ => {}
        }
        current.push(c);
        i += 1;
    }
    parts.push(current);
    parts
}

/// One `#{…}` body.
fn directive(inner: &str, vars: &dyn Lookup, depth: usize) -> String {
    if depth > MAX_DEPTH {
        return String::new();
    }
    let expand = |text: &str| expand_depth(text, vars, depth + 1);
    if let Some(rest) = inner.strip_prefix('?') {
        let parts = split_commas(rest);
        let cond = parts.first().map_or("", String::as_str);
        let value = condition_value(cond, vars, depth);
        let pick = if truthy(&value) {
            parts.get(1)
        } else {
            parts.get(2)
        };
        return pick.map(|p| expand(p)).unwrap_or_default();
    }
    if let Some((op, rest)) = comparison(inner) {
        let parts = split_commas(rest);
        let a = expand(parts.first().map_or("", String::as_str));
        let b = expand(parts.get(1).map_or("", String::as_str));
        let yes = match op {
            "==" => a == b,
            "!=" => a != b,
            "<" => a < b,
            ">" => a > b,
            "<=" => a <= b,
            ">=" => a >= b,
            "||" => truthy(&a) || truthy(&b),
            "&&" => truthy(&a) && truthy(&b),
            _ => false,
        };
        return if yes { "1" } else { "0" }.to_string();
    }
    if let Some((modifier, body)) = modifier(inner) {
        return apply_modifier(modifier, body, vars, depth);
    }
    vars.get(inner.trim()).unwrap_or_default()
}

/// A condition is a variable's name or a format.
fn condition_value(cond: &str, vars: &dyn Lookup, depth: usize) -> String {
    if cond.contains('#') {
        expand_depth(cond, vars, depth + 1)
    } else {
        vars.get(cond).unwrap_or_default()
    }
}

/// tmux's truth: anything but empty and `0`.
pub fn truthy(value: &str) -> bool {
    !value.is_empty() && value != "0"
}

fn comparison(inner: &str) -> Option<(&str, &str)> {
    for op in ["==", "!=", "<=", ">=", "||", "&&", "<", ">"] {
        if let Some(rest) = inner.strip_prefix(op).and_then(|r| r.strip_prefix(':')) {
            return Some((op, rest));
        }
    }
    None
}

/// `MOD:body`, where MOD is what tmux takes before a colon.
fn modifier(inner: &str) -> Option<(&str, &str)> {
    let colon = inner.find(':')?;
    let head = &inner[..colon];
    let known = head.starts_with('=')
        || head.starts_with("s/")
        || head.starts_with("e|")
        || head.starts_with('m')
        || matches!(
            head,
            "l" | "b" | "d" | "n" | "q" | "t" | "E" | "T" | "a" | "w" | "p"
        );
    known.then(|| (head, &inner[colon + 1..]))
}

fn apply_modifier(modifier: &str, body: &str, vars: &dyn Lookup, depth: usize) -> String {
    let value = |text: &str| -> String {
        // A bare name is a variable; anything else a format.
        if text.contains('#') {
            expand_depth(text, vars, depth + 1)
        } else {
            vars.get(text).unwrap_or_default()
        }
    };
    match modifier {
        "l" => body.to_string(),
        "b" => {
            let v = value(body);
            v.rsplit('/').next().unwrap_or("").to_string()
        }
        "d" => {
            let v = value(body);
            match v.rfind('/') {
                Some(0) => "/".into(),
                Some(at) => v[..at].to_string(),
                None => ".".into(),
            }
        }
        "n" | "w" => value(body).chars().count().to_string(),
        "q" => value(body)
            .chars()
            .flat_map(|c| {
                let escape = !(c.is_alphanumeric() || "-_./,:@%+=".contains(c));
                escape.then_some('\\').into_iter().chain(std::iter::once(c))
            })
            .collect(),
        "t" | "T" | "p" => value(body),
        "a" => value(body)
            .parse::<u32>()
            .ok()
            .and_then(char::from_u32)
            .map(String::from)
            .unwrap_or_default(),
        "E" => expand_depth(&value(body), vars, depth + 1),
        m if m.starts_with('=') => {
            let n: i64 = m[1..].parse().unwrap_or(0);
            let v: Vec<char> = value(body).chars().collect();
            let keep = n.unsigned_abs() as usize;
            if keep >= v.len() {
                v.into_iter().collect()
            } else if n >= 0 {
                v[..keep].iter().collect()
            } else {
                v[v.len() - keep..].iter().collect()
            }
        }
        m if m.starts_with("s/") => substitute(m, &value(body)),
        m if m.starts_with("e|") => arithmetic(m, body, vars, depth),
        m if m.starts_with('m') => {
            let parts = split_commas(body);
            let pattern = expand_depth(parts.first().map_or("", String::as_str), vars, depth + 1);
            let text = expand_depth(parts.get(1).map_or("", String::as_str), vars, depth + 1);
            if fnmatch(&pattern, &text) { "1" } else { "0" }.to_string()
        }
        _ => String::new(),
    }
}

/// `s/re/with/` (`/i` for no case), over `text`.
fn substitute(modifier: &str, text: &str) -> String {
    let parts: Vec<&str> = modifier[2..].split('/').collect();
    let (Some(pattern), Some(with)) = (parts.first(), parts.get(1)) else {
        return text.to_string();
    };
    let flags = parts.get(2).copied().unwrap_or("");
    let pattern = if flags.contains('i') {
        format!("(?i){pattern}")
    } else {
        (*pattern).to_string()
    };
    match regex::Regex::new(&pattern) {
        Ok(re) => {
            // tmux's \1 is the regex crate's ${1}.
            let with = regex::Regex::new(r"\\(\d)")
                .map(|r| r.replace_all(with, "$${$1}").into_owned())
                .unwrap_or_else(|_| (*with).to_string());
            re.replace_all(text, with.as_str()).into_owned()
        }
        Err(_) => text.to_string(),
    }
}

/// `e|+|:a,b` and the other operators, integers (`f` for floats).
fn arithmetic(modifier: &str, body: &str, vars: &dyn Lookup, depth: usize) -> String {
    let parts: Vec<&str> = modifier.split('|').collect();
    let op = parts.get(1).copied().unwrap_or("");
    let args = split_commas(body);
    let num = |i: usize| -> f64 {
        expand_depth(args.get(i).map_or("", String::as_str), vars, depth + 1)
            .trim()
            .parse()
            .unwrap_or(0.0)
    };
    let (a, b) = (num(0), num(1));
    let float = parts.get(2).is_some_and(|f| f.contains('f'));
    let result = match op {
        "+" => a + b,
        "-" => a - b,
        "*" => a * b,
        "/" if b != 0.0 => a / b,
        "m" if b != 0.0 => a % b,
        "==" => f64::from(u8::from(a == b)),
        "!=" => f64::from(u8::from(a != b)),
        "<" => f64::from(u8::from(a < b)),
        ">" => f64::from(u8::from(a > b)),
        "<=" => f64::from(u8::from(a <= b)),
        ">=" => f64::from(u8::from(a >= b)),
        _ => 0.0,
    };
    if float {
        format!("{result:.2}")
    } else {
        format!("{}", result.trunc() as i64)
    }
}

/// Shell-style pattern match (`*`, `?`, `[…]`).
pub fn fnmatch(pattern: &str, text: &str) -> bool {
    let mut re = String::from("^");
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' => re.push_str(".*"),
            '?' => re.push('.'),
            '[' => {
                re.push('[');
                for c in chars.by_ref() {
                    if c == ']' {
                        break;
                    }
                    if c == '\\' {
                        re.push('\\');
                    }
                    re.push(c);
                }
                re.push(']');
            }
            c => re.push_str(&regex::escape(&c.to_string())),
        }
    }
    re.push('$');
    regex::Regex::new(&re).is_ok_and(|re| re.is_match(text))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Vars(HashMap<&'static str, &'static str>);
    impl Lookup for Vars {
        fn get(&self, name: &str) -> Option<String> {
            self.0.get(name).map(|v| (*v).to_string())
        }
    }

    fn vars() -> Vars {
        Vars(HashMap::from([
            ("pane_id", "%3"),
            ("pane_active", "1"),
            ("pane_dead", "0"),
            ("session_name", "work"),
            ("window_index", "2"),
            ("pane_current_path", "/home/me/src/tilework"),
            ("pane_current_command", "vim"),
            ("pane_width", "80"),
        ]))
    }

    #[test]
    fn variables_shorthands_and_escapes() {
        let v = vars();
        assert_eq!(expand("#{pane_id}␞#{session_name}␞", &v), "%3␞work␞");
        assert_eq!(expand("#S:#I #D ## #{nope}x", &v), "work:2 %3 # x");
    }

    #[test]
    fn conditionals_and_comparisons() {
        let v = vars();
        assert_eq!(expand("#{?pane_active,yes,no}", &v), "yes");
        assert_eq!(expand("#{?pane_dead,dead,#{pane_id}}", &v), "%3");
        assert_eq!(expand("#{==:#{pane_current_command},vim}", &v), "1");
        assert_eq!(expand("#{!=:#{session_name},work}", &v), "0");
        assert_eq!(expand("#{?#{==:#{pane_current_command},vim},V,S}", &v), "V");
        assert_eq!(expand("#{||:#{pane_dead},#{pane_active}}", &v), "1");
        assert_eq!(expand("#{&&:#{pane_dead},#{pane_active}}", &v), "0");
        assert_eq!(expand("#{m:*vim*,#{pane_current_command}}", &v), "1");
    }

    #[test]
    fn modifiers() {
        let v = vars();
        assert_eq!(expand("#{=4:session_name}", &v), "work");
        assert_eq!(expand("#{=2:session_name}", &v), "wo");
        assert_eq!(expand("#{=-2:session_name}", &v), "rk");
        assert_eq!(expand("#{s/o/0/:session_name}", &v), "w0rk");
        assert_eq!(expand("#{l:#{pane_id}}", &v), "#{pane_id}");
        assert_eq!(expand("#{b:pane_current_path}", &v), "tilework");
        assert_eq!(expand("#{d:pane_current_path}", &v), "/home/me/src");
        assert_eq!(expand("#{n:session_name}", &v), "4");
        assert_eq!(expand("#{e|+|:#{pane_width},1}", &v), "81");
    }
}
