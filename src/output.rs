//! Where commands write: the one gate every file a command writes goes through.
//!
//! A command lists the files it reads ([`Outputs::input`], [`Outputs::input_dir`]), then
//! claims every file it will write before it writes any ([`Outputs::claim`] for a file the
//! user named, [`Outputs::claim_in`] for a file inside a folder it writes into). A claim is
//! refused, naming the file, when
//!
//! - it is a file the command reads (compared by identity: device and inode, else the
//!   canonical path; never by name), unless the command rewrites that file on purpose
//!   ([`Outputs::claim_update`]);
//! - another output of the same run is the same file (`a/g.pgn` and `b/g.pgn` converted
//!   into one folder);
//! - it leads out of the folder it is written into (a symbolic link), or is a symbolic
//!   link that leads nowhere, or a directory.
//!
//! A [`Target`] is written into a new file beside it that is then renamed over it: a
//! write that fails leaves the old file whole. A folder a command removes files from
//! keeps a manifest of the files it wrote there ([`OwnedDir`], [`MANIFEST`]): it removes
//! only those, and refuses a folder that holds other files unless forced (and then keeps
//! them, listed as kept).
//!
//! The manifest lists what the command wrote there (removable) and the files of others it
//! was told to keep (`--force` of `report --write`). The command line lists its global
//! inputs (`--spec`, `--overlay`) in `src/cli/mod.rs` (`outputs`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File};
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::input::FileError;

/// Refusals as a command says them: one a line.
pub fn said(errors: &[FileError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

fn refused(path: &Path, message: impl Into<String>) -> FileError {
    FileError {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// How many entries of a folder are looked at, at most, when a command lists the files a
/// folder it reads (`--spec DIR`) or writes into (`report --dir DIR`) holds: a folder with
/// more is no spec, suite or reports folder, and a bound keeps a mistaken `--dir ~` fast.
pub const MAX_FOLDER_ENTRIES: usize = 20_000;

/// A file as the filesystem knows it.
#[derive(Clone, Debug)]
struct Identity {
    /// Where it is, every symbolic link resolved.
    canonical: PathBuf,
    /// Device and inode (Unix).
    inode: Option<(u64, u64)>,
}

impl Identity {
    /// The file at `path`, if there is one (a symbolic link followed).
    fn of(path: &Path) -> Option<Identity> {
        let meta = fs::metadata(path).ok()?;
        let canonical = fs::canonicalize(path).ok()?;
        Some(Identity {
            canonical,
            inode: inode(&meta),
        })
    }

    fn same(&self, other: &Identity) -> bool {
        match (self.inode, other.inode) {
            (Some(a), Some(b)) => a == b,
            _ => self.canonical == other.canonical,
        }
    }
}

#[cfg(unix)]
fn inode(meta: &fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn inode(_: &fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// Where `path` leads: its longest existing prefix with every symbolic link resolved, then
/// the components that do not exist yet (`.` dropped, `..` taken as written). A symbolic
/// link that leads nowhere is an error.
fn resolve(path: &Path) -> Result<PathBuf, String> {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| format!("cannot tell the current folder: {e}"))?
            .join(path)
    };
    let mut at = PathBuf::new();
    let mut existing = true;
    for c in abs.components() {
        match c {
            Component::Prefix(_) | Component::RootDir => at.push(c.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                at.pop();
            }
            Component::Normal(name) => {
                let next = at.join(name);
                if existing && fs::symlink_metadata(&next).is_ok() {
                    at = match fs::canonicalize(&next) {
                        Ok(c) => c,
                        // A link the system resolves itself (`/dev/stdout` to a pipe).
                        Err(_) if fs::metadata(&next).is_ok() => next,
                        Err(_) => {
                            return Err(format!(
                                "{} is a symbolic link that leads nowhere: not followed",
                                next.display()
                            ))
                        }
                    };
                } else {
                    existing = false;
                    at = next;
                }
            }
        }
    }
    Ok(at)
}

/// Where `path` leads ([`resolve`]); with `root`, refused when that is not inside it.
fn locate(path: &Path, what: &str, root: Option<&Path>) -> Result<PathBuf, FileError> {
    let location =
        resolve(path).map_err(|e| refused(path, format!("{what}: {e}; nothing written")))?;
    if let Some(root) = root {
        let inside =
            resolve(root).map_err(|e| refused(path, format!("{what}: {e}; nothing written")))?;
        if !location.starts_with(&inside) {
            return Err(refused(
                path,
                format!(
                    "{what} leads out of the folder {} (to {}, through a symbolic link): not followed; nothing written",
                    root.display(),
                    location.display()
                ),
            ));
        }
    }
    Ok(location)
}

/// A file read, or claimed as an output.
#[derive(Clone, Debug)]
struct Known {
    path: PathBuf,
    what: String,
    /// Where it leads (its canonical path once it exists).
    location: PathBuf,
    identity: Option<Identity>,
}

impl Known {
    fn same(&self, other: &Known) -> bool {
        match (&self.identity, &other.identity) {
            (Some(a), Some(b)) => a.same(b),
            _ => self.location == other.location,
        }
    }
}

/// The files a command reads and the files it has claimed to write.
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    inputs: Vec<Known>,
    claimed: Vec<Known>,
}

impl Outputs {
    /// No file read or claimed yet.
    pub fn new() -> Outputs {
        Outputs::default()
    }

    /// A file the command reads, named `what` in a refusal (`the record file`). A path
    /// that names no file is left out (the command's reading reports it).
    pub fn input(&mut self, path: &Path, what: &str) {
        if let Some(identity) = Identity::of(path) {
            if fs::metadata(path).is_ok_and(|m| m.is_dir()) {
                return;
            }
            self.inputs.push(Known {
                path: path.to_path_buf(),
                what: what.to_string(),
                location: identity.canonical.clone(),
                identity: Some(identity),
            });
        }
    }

    /// The files of a folder the command reads (`--spec DIR`, `--cases DIR`): every file
    /// below it whose name ends with one of `ends`, up to [`MAX_FOLDER_ENTRIES`] entries.
    pub fn input_dir(&mut self, dir: &Path, what: &str, ends: &[&str]) {
        let (files, _) = walk(dir);
        for rel in files {
            let name = rel.to_string_lossy();
            if ends.iter().any(|e| name.ends_with(e)) {
                self.input(&dir.join(&rel), what);
            }
        }
    }

    /// A file the command writes, named by the user (`--out`, `--svg`, `--report`): `what`
    /// names the option in a refusal. A symbolic link the user named is followed (and the
    /// file it leads to is the one compared and written).
    pub fn claim(&mut self, path: &Path, what: &str) -> Result<Target, FileError> {
        self.claim_checked(path, what, None, false)
    }

    /// A file the command writes into the folder `root`, at `rel` below it: refused when
    /// it leads out of the folder (through a symbolic link). Its folders are made when it
    /// is written.
    pub fn claim_in(&mut self, root: &Path, rel: &Path, what: &str) -> Result<Target, FileError> {
        self.claim_checked(&root.join(rel), what, Some(root), false)
    }

    /// A file the command reads and then rewrites on purpose (`conform
    /// --update-known-failures FILE`): every check of [`Outputs::claim`] but that it is
    /// that input.
    pub fn claim_update(&mut self, path: &Path, what: &str) -> Result<Target, FileError> {
        self.claim_checked(path, what, None, true)
    }

    /// Checks that the folder `rel` below `root` (which a command will write files into)
    /// does not lead out of `root`, before anything is written.
    pub fn folder_in(&self, root: &Path, rel: &Path, what: &str) -> Result<(), FileError> {
        locate(&root.join(rel), what, Some(root)).map(|_| ())
    }

    fn claim_checked(
        &mut self,
        path: &Path,
        what: &str,
        root: Option<&Path>,
        update: bool,
    ) -> Result<Target, FileError> {
        let location = locate(path, what, root)?;
        if fs::metadata(&location).is_ok_and(|m| m.is_dir()) {
            return Err(refused(
                path,
                format!("{what} is a directory, not a file; nothing written"),
            ));
        }
        let known = Known {
            path: path.to_path_buf(),
            what: what.to_string(),
            identity: Identity::of(&location),
            location: location.clone(),
        };
        if let Some(i) = self.inputs.iter().find(|i| !update && i.same(&known)) {
            return Err(refused(
                path,
                format!(
                    "{what} is {} {}, which this command reads: not written over; nothing written",
                    i.what,
                    i.path.display()
                ),
            ));
        }
        if let Some(c) = self.claimed.iter().find(|c| c.same(&known)) {
            return Err(refused(
                path,
                format!(
                    "{what} and {} would both be written to this file{}: two outputs with one name; nothing written",
                    c.what,
                    if c.path == path { String::new() } else { format!(" (as {})", c.path.display()) }
                ),
            ));
        }
        self.claimed.push(known);
        Ok(Target {
            path: path.to_path_buf(),
            location,
            make_folders: root.is_some(),
        })
    }
}

/// Every file (and symbolic link) below `dir`, as paths relative to it, sorted; and
/// whether the walk stopped at [`MAX_FOLDER_ENTRIES`]. Symbolic links to folders are not
/// entered.
fn walk(dir: &Path) -> (Vec<PathBuf>, bool) {
    let mut files = Vec::new();
    let mut folders = vec![PathBuf::new()];
    let mut seen = 0;
    while let Some(rel) = folders.pop() {
        let Ok(entries) = fs::read_dir(dir.join(&rel)) else {
            continue;
        };
        for e in entries.flatten() {
            seen += 1;
            if seen > MAX_FOLDER_ENTRIES {
                files.sort();
                return (files, true);
            }
            let r = rel.join(e.file_name());
            match e.file_type() {
                Ok(t) if t.is_dir() => folders.push(r),
                _ => files.push(r),
            }
        }
    }
    files.sort();
    (files, false)
}

/// A file claimed for writing.
#[derive(Clone, Debug)]
pub struct Target {
    path: PathBuf,
    location: PathBuf,
    make_folders: bool,
}

static TEMP: AtomicU64 = AtomicU64::new(0);

impl Target {
    /// The file, as the command was given it.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` to the file ([`Target::create`], then [`Partial::finish`]).
    pub fn write(&self, bytes: &[u8]) -> Result<(), FileError> {
        let mut p = self.create()?;
        p.write_all(bytes)
            .map_err(|e| refused(&self.path, format!("cannot write: {e}")))?;
        p.finish()
    }

    /// The file to write by parts: a new file beside it, put in its place by
    /// [`Partial::finish`] (and removed when dropped unfinished). A file that is no
    /// regular file (`/dev/stdout`, a pipe) is written as it is.
    pub fn create(&self) -> Result<Partial, FileError> {
        let cannot =
            |what: &str, e: std::io::Error| refused(&self.path, format!("cannot {what}: {e}"));
        if let Some(dir) = self.location.parent() {
            if self.make_folders {
                fs::create_dir_all(dir).map_err(|e| cannot("create its folder", e))?;
            }
        }
        if fs::metadata(&self.location).is_ok_and(|m| !m.is_file()) {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(&self.location)
                .map_err(|e| cannot("write", e))?;
            return Ok(Partial {
                target: self.clone(),
                temp: None,
                file: Some(std::io::BufWriter::new(file)),
            });
        }
        let name = self
            .location
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let dir = self.location.parent().unwrap_or(Path::new("."));
        loop {
            let n = TEMP.fetch_add(1, Ordering::Relaxed);
            let temp = dir.join(format!(".{name}.{}-{n}.xqspec-tmp", std::process::id()));
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temp)
            {
                Ok(file) => {
                    return Ok(Partial {
                        target: self.clone(),
                        temp: Some(temp),
                        file: Some(std::io::BufWriter::new(file)),
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(cannot("write", e)),
            }
        }
    }
}

/// A file being written ([`Target::create`]).
#[derive(Debug)]
pub struct Partial {
    target: Target,
    temp: Option<PathBuf>,
    file: Option<std::io::BufWriter<File>>,
}

impl Partial {
    /// Puts the file in place: the old one, if any, is replaced whole.
    pub fn finish(mut self) -> Result<(), FileError> {
        let cannot = |e: std::io::Error| refused(&self.target.path, format!("cannot write: {e}"));
        if let Some(f) = self.file.take() {
            f.into_inner().map_err(|e| cannot(e.into_error()))?;
        }
        if let Some(temp) = self.temp.take() {
            if let Err(e) = fs::rename(&temp, &self.target.location) {
                let _ = fs::remove_file(&temp);
                return Err(cannot(e));
            }
        }
        Ok(())
    }
}

impl Write for Partial {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("not finished").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("not finished").flush()
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            drop(self.file.take());
            let _ = fs::remove_file(temp);
        }
    }
}

/// The name of the manifest a command keeps in a folder it owns files in ([`OwnedDir`]).
pub const MANIFEST: &str = "xqspec-manifest";

/// What a manifest says: the files the command wrote (it may overwrite and remove them)
/// and the files it was told to write beside (kept, never touched).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    /// Files written, relative to the folder, with `/` between folders.
    pub wrote: BTreeSet<String>,
    /// Files of others the folder holds, relative to it: kept.
    pub kept: BTreeSet<String>,
}

impl Manifest {
    /// The manifest's text.
    pub fn text(&self, command: &str) -> String {
        let mut s = format!(
            "# The files `{command}` wrote into this folder (`wrote`): it overwrites and removes\n\
             # only these. The files of others it was told to write beside (`kept`, with --force):\n\
             # never touched. Written by the command; a file listed nowhere makes it refuse the folder.\n"
        );
        for f in &self.wrote {
            s.push_str(&format!("wrote {f}\n"));
        }
        for f in &self.kept {
            s.push_str(&format!("kept {f}\n"));
        }
        s
    }

    /// Reads a manifest's text (`file` names it in an error).
    pub fn parse(file: &Path, text: &str) -> Result<Manifest, FileError> {
        let mut m = Manifest::default();
        for (i, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || {
                refused(
                    file,
                    format!(
                        "line {}: not a line of a manifest (`wrote FILE` or `kept FILE`): {line:?}; remove the manifest to start again",
                        i + 1
                    ),
                )
            };
            let (word, name) = line.split_once(' ').ok_or_else(bad)?;
            if !plain_relative(name) {
                return Err(bad());
            }
            match word {
                "wrote" => m.wrote.insert(name.to_string()),
                "kept" => m.kept.insert(name.to_string()),
                _ => return Err(bad()),
            };
        }
        Ok(m)
    }

    /// The manifest of the folder `root`: empty when it has none; an error when it does
    /// not read.
    pub fn of(root: &Path) -> Result<Option<Manifest>, FileError> {
        let path = root.join(MANIFEST);
        match fs::read(&path) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes)
                    .map_err(|_| refused(&path, "is not UTF-8 text: not a manifest"))?;
                Manifest::parse(&path, &text).map(Some)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(refused(&path, format!("cannot read: {e}"))),
        }
    }
}

/// A relative path of plain names (no `..`, no root, no line break): what a manifest lists.
fn plain_relative(name: &str) -> bool {
    !name.is_empty()
        && !name.contains('\n')
        && !name.contains('\r')
        && Path::new(name)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// A relative path as a manifest writes it (`/` between folders), if it can.
fn manifest_name(rel: &Path) -> Option<String> {
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    let name = parts?.join("/");
    plain_relative(&name).then_some(name)
}

/// A folder a command writes a set of files into and removes the ones it no longer
/// writes from (`report --write --dir DIR`), planned before anything is written.
#[derive(Debug)]
pub struct OwnedDir {
    root: PathBuf,
    command: String,
    writes: Vec<(String, Target, Vec<u8>)>,
    removes: Vec<(String, Target)>,
    manifest: Target,
    before: Manifest,
    after: Manifest,
}

impl OwnedDir {
    /// Checks the folder `root` before `command` computes what it writes there: refused,
    /// naming the files, when it holds files the command did not write (its manifest
    /// lists neither as written nor as kept) unless `force`, or is not a folder, or holds
    /// more than [`MAX_FOLDER_ENTRIES`] entries. Returns the manifest and the files of
    /// others the folder holds (to keep).
    pub fn check(
        root: &Path,
        command: &str,
        force: bool,
    ) -> Result<(Manifest, BTreeSet<String>), Vec<FileError>> {
        if fs::metadata(root).is_ok_and(|m| !m.is_dir()) {
            return Err(vec![refused(root, "is not a folder: nothing written")]);
        }
        let before = Manifest::of(root).map_err(|e| vec![e])?.unwrap_or_default();
        let (present, cut) = walk(root);
        if cut {
            return Err(vec![refused(
                root,
                format!(
                    "holds more than {MAX_FOLDER_ENTRIES} entries: not a folder `{command}` writes into; nothing written"
                ),
            )]);
        }
        let mut others = Vec::new();
        let mut kept = BTreeSet::new();
        for rel in &present {
            let Some(name) = manifest_name(rel) else {
                others.push(rel.display().to_string());
                continue;
            };
            if name == MANIFEST || before.wrote.contains(&name) {
                continue;
            }
            if !before.kept.contains(&name) {
                others.push(name.clone());
            }
            kept.insert(name);
        }
        if !others.is_empty() && !force {
            let shown: Vec<&str> = others.iter().take(5).map(String::as_str).collect();
            let more = if others.len() > 5 {
                format!(" and {} more", others.len() - 5)
            } else {
                String::new()
            };
            return Err(vec![refused(
                root,
                format!(
                    "holds files `{command}` did not write ({}{more}; its manifest {MANIFEST} lists what it wrote): nothing written. Give --force to write beside them: they are kept and never removed (one named as a file it writes is replaced)",
                    shown.join(", ")
                ),
            )]);
        }
        Ok((before, kept))
    }

    /// Plans writing `files` (path relative to `root`, with `/` → content) into `root`
    /// for `command`, after [`OwnedDir::check`]: refused, naming the file, when a file
    /// would lead out of the folder or is one the command reads. Files the manifest
    /// lists as written and `files` no longer holds are removed; the files of others are
    /// kept (and listed as kept), but one named as a file in `files` is replaced.
    pub fn plan(
        outputs: &mut Outputs,
        root: &Path,
        files: &BTreeMap<String, String>,
        command: &str,
        force: bool,
    ) -> Result<OwnedDir, Vec<FileError>> {
        let (before, mut kept) = OwnedDir::check(root, command, force)?;
        let mut errors = Vec::new();
        let mut writes = Vec::new();
        for (name, text) in files {
            match outputs.claim_in(root, Path::new(name), "a report") {
                Ok(t) => {
                    kept.remove(name);
                    if fs::read(t.location.as_path()).ok().as_deref() != Some(text.as_bytes()) {
                        writes.push((name.clone(), t, text.clone().into_bytes()));
                    }
                }
                Err(e) => errors.push(e),
            }
        }
        let mut removes = Vec::new();
        for name in before.wrote.difference(&files.keys().cloned().collect()) {
            let path = root.join(name);
            if fs::symlink_metadata(&path).is_err() {
                continue;
            }
            match outputs.claim_in(root, Path::new(name), "a report no longer generated") {
                Ok(t) => removes.push((name.clone(), t)),
                Err(e) => errors.push(e),
            }
        }
        let manifest = outputs
            .claim_in(root, Path::new(MANIFEST), "the manifest")
            .map_err(|e| vec![e]);
        let manifest = match manifest {
            Ok(m) if errors.is_empty() => m,
            Ok(_) => return Err(errors),
            Err(mut e) => {
                errors.append(&mut e);
                return Err(errors);
            }
        };
        let after = Manifest {
            wrote: files.keys().cloned().collect(),
            kept,
        };
        Ok(OwnedDir {
            root: root.to_path_buf(),
            command: command.to_string(),
            writes,
            removes,
            manifest,
            before,
            after,
        })
    }

    /// Writes the files that changed, removes the ones no longer written, and the
    /// manifest: first listing both the old and the new files, so that a run cut short
    /// leaves every file it wrote listed. Returns what it did, a line a file (`DIR/FILE`,
    /// `DIR/FILE (removed)`).
    pub fn apply(self) -> Result<Vec<String>, FileError> {
        let mut done = Vec::new();
        let path = self.root.join(MANIFEST);
        let old = fs::read(&path).ok();
        let text = self.after.text(&self.command);
        if old.as_deref() == Some(text.as_bytes())
            && self.writes.is_empty()
            && self.removes.is_empty()
        {
            return Ok(done);
        }
        let union = Manifest {
            wrote: self
                .before
                .wrote
                .union(&self.after.wrote)
                .cloned()
                .collect(),
            kept: self.after.kept.clone(),
        };
        self.manifest.write(union.text(&self.command).as_bytes())?;
        for (_, t, bytes) in &self.writes {
            t.write(bytes)?;
            done.push(t.path.display().to_string());
        }
        for (_, t) in &self.removes {
            fs::remove_file(&t.path)
                .map_err(|e| refused(&t.path, format!("cannot remove: {e}")))?;
            done.push(format!("{} (removed)", t.path.display()));
        }
        self.manifest.write(text.as_bytes())?;
        if old.as_deref() != Some(text.as_bytes()) {
            done.push(self.manifest.path.display().to_string());
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("xqspec-output-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn an_output_that_is_an_input_or_another_output_is_refused_by_identity() {
        let d = temp("identity");
        fs::write(d.join("g.pgn"), "x").unwrap();
        let mut o = Outputs::new();
        o.input(&d.join("g.pgn"), "the record file");
        // The same file by another name: `./` and `..` in the path.
        let other = d.join(".").join("sub").join("..").join("g.pgn");
        let e = o.claim(&other, "--out").unwrap_err();
        assert!(e.message.contains("which this command reads"), "{e}");
        o.claim(&d.join("a.svg"), "--svg").unwrap();
        let e = o.claim(&d.join("./a.svg"), "--report").unwrap_err();
        assert!(e.message.contains("two outputs with one name"), "{e}");
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_manifest_reads_what_it_writes() {
        let m = Manifest {
            wrote: ["a.md".to_string(), "diagrams/x.svg".to_string()].into(),
            kept: ["notes.txt".to_string()].into(),
        };
        assert_eq!(Manifest::parse(Path::new("m"), &m.text("t")).unwrap(), m);
        assert!(Manifest::parse(Path::new("m"), "wrote ../x\n").is_err());
        assert!(Manifest::parse(Path::new("m"), "junk\n").is_err());
    }
}
