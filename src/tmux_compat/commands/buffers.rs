//! Paste buffers by name (`set-buffer`, `load-buffer`, `paste-buffer`…).

use std::io::Read;

use super::Ctx;
use crate::session::script::{Call, KeyArg};
use crate::tmux_compat::argv::Parsed;
use crate::tmux_compat::format::truthy;
use crate::tmux_compat::tmux_target::Kind;

fn no_buffer(name: Option<&str>) -> String {
    match name {
        Some(name) => format!("no buffer {name}"),
        None => "no buffers".into(),
    }
}

pub fn set_buffer(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let store = ctx.store()?;
    let name = p.value('b');
    if let Some(new) = p.value('n') {
        let from = match name {
            Some(n) => n.to_string(),
            None => store.buffer(None).ok_or_else(|| no_buffer(None))?.0,
        };
        if !store.rename_buffer(&from, new) {
            return Err(no_buffer(Some(&from)));
        }
        return Ok(());
    }
    let Some(data) = p.args.first() else {
        return Err(
            "usage: set-buffer [-aw] [-b buffer-name] [-n new-buffer-name] [-t target-client] data"
                .into(),
        );
    };
    let mut text = Vec::new();
    if p.has('a')
        && let Some((_, old)) = store.buffer(name)
    {
        text = old;
    }
    text.extend_from_slice(data.as_bytes());
    store
        .set_buffer(name, &text)
        .map_err(|e| format!("{e:#}"))?;
    Ok(())
}

pub fn load_buffer(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let Some(path) = p.args.first() else {
        return Err("usage: load-buffer [-w] [-b buffer-name] [-t target-client] path".into());
    };
    let text = if path == "-" {
        let mut text = Vec::new();
        std::io::stdin()
            .read_to_end(&mut text)
            .map_err(|e| format!("reading stdin: {e}"))?;
        text
    } else {
        std::fs::read(path).map_err(|e| format!("{path}: {e}"))?
    };
    ctx.store()?
        .set_buffer(p.value('b'), &text)
        .map_err(|e| format!("{e:#}"))?;
    Ok(())
}

pub fn save_buffer(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let Some(path) = p.args.first() else {
        return Err("usage: save-buffer [-a] [-b buffer-name] path".into());
    };
    let (_, text) = ctx
        .store()?
        .buffer(p.value('b'))
        .ok_or_else(|| no_buffer(p.value('b')))?;
    if path == "-" {
        ctx.out.extend_from_slice(&text);
        return Ok(());
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(p.has('a'))
        .truncate(!p.has('a'))
        .open(path)
        .map_err(|e| format!("{path}: {e}"))?;
    std::io::Write::write_all(&mut file, &text).map_err(|e| format!("{path}: {e}"))
}

pub fn show_buffer(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let (_, text) = ctx
        .store()?
        .buffer(p.value('b'))
        .ok_or_else(|| no_buffer(p.value('b')))?;
    ctx.out.extend_from_slice(&text);
    Ok(())
}

pub fn delete_buffer(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let store = ctx.store()?;
    let name = match p.value('b') {
        Some(n) => n.to_string(),
        None => store.buffer(None).ok_or_else(|| no_buffer(None))?.0,
    };
    if store.delete_buffer(&name) {
        Ok(())
    } else {
        Err(no_buffer(Some(&name)))
    }
}

pub fn list_buffers(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let format = p
        .value('F')
        .unwrap_or("#{buffer_name}: #{buffer_size} bytes: \"#{buffer_sample}\"")
        .to_string();
    for (name, text) in ctx.store()?.buffers() {
        let sample: String = String::from_utf8_lossy(&text)
            .chars()
            .take(50)
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let scope_vars = [
            ("buffer_name", name.clone()),
            ("buffer_size", text.len().to_string()),
            ("buffer_sample", sample),
        ];
        let mut scope = crate::tmux_compat::vars::Scope::new(&ctx.server, None);
        for (k, v) in scope_vars {
            scope.extra.insert(k.into(), v);
        }
        if let Some(filter) = p.value('f')
            && !truthy(&crate::tmux_compat::format::expand(filter, &scope))
        {
            continue;
        }
        let line = crate::tmux_compat::format::expand(&format, &scope);
        ctx.print(&line);
    }
    Ok(())
}

pub fn paste_buffer(ctx: &mut Ctx, p: &Parsed) -> Result<(), String> {
    let store = ctx.store()?;
    let (name, text) = store
        .buffer(p.value('b'))
        .ok_or_else(|| no_buffer(p.value('b')))?;
    let at = ctx.find(p.value('t'), Kind::Pane)?;
    let pane = ctx.pane_number(at);
    let mut text = String::from_utf8_lossy(&text).into_owned();
    // tmux ends each line with the separator (a carriage return, as a
    // typed Enter), unless -r.
    if !p.has('r') {
        let sep = p.value('s').unwrap_or("\r");
        text = text.replace('\n', sep);
    }
    let path = ctx.session(at).path.clone();
    if !text.is_empty() {
        ctx.server.call_raw(
            &path,
            &Call::SendKeys {
                pane: Some(pane),
                keys: vec![KeyArg::Text(text)],
            },
        )?;
    }
    if p.has('d') {
        store.delete_buffer(&name);
    }
    Ok(())
}
