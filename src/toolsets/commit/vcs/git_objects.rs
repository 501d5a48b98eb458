// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! git objects made in the server, pure: their IDs (SHA-1, or SHA-256 in a
//! repository of that object format), trees in git's own encoding and
//! order, and a pack that holds them. A write of the plan is then one
//! `git unpack-objects` (every object of the write, whatever their number)
//! and one `git update-ref`, where writing each object through its own
//! `git hash-object` or `git mktree` cost a process per object, and each
//! waited for the ID the one before printed.

use sha1::Sha1;
use sha2::{Digest, Sha256};

/// The hash function of a repository's objects (`extensions.objectFormat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// SHA-1, 20 bytes: git's default.
    Sha1,
    /// SHA-256, 32 bytes.
    Sha256,
}

impl Format {
    /// How many bytes an object ID has.
    fn len(self) -> usize {
        match self {
            Format::Sha1 => 20,
            Format::Sha256 => 32,
        }
    }

    /// The digest of `parts`, one after another.
    fn digest(self, parts: &[&[u8]]) -> Vec<u8> {
        fn of<D: Digest>(parts: &[&[u8]]) -> Vec<u8> {
            let mut hasher = D::new();
            for part in parts {
                hasher.update(part);
            }
            hasher.finalize().to_vec()
        }
        match self {
            Format::Sha1 => of::<Sha1>(parts),
            Format::Sha256 => of::<Sha256>(parts),
        }
    }
}

/// The kinds of object a plan write makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A file's content.
    Blob,
    /// A directory listing.
    Tree,
}

impl Kind {
    /// The name git hashes into the object's header.
    fn name(self) -> &'static str {
        match self {
            Kind::Blob => "blob",
            Kind::Tree => "tree",
        }
    }

    /// The type number of a pack entry.
    fn pack_type(self) -> u8 {
        match self {
            Kind::Tree => 2,
            Kind::Blob => 3,
        }
    }
}

/// One object to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Object {
    /// What it is.
    pub(crate) kind: Kind,
    /// Its content, as git stores it.
    pub(crate) data: Vec<u8>,
}

impl Object {
    /// A blob of `data`.
    pub(crate) fn blob(data: &[u8]) -> Self {
        Self {
            kind: Kind::Blob,
            data: data.to_vec(),
        }
    }

    /// The object's ID in `format`, as the lowercase hex git prints.
    pub(crate) fn id(&self, format: Format) -> String {
        let header = format!("{} {}\0", self.kind.name(), self.data.len());
        hex::encode(format.digest(&[header.as_bytes(), &self.data]))
    }
}

/// One entry of a tree: its mode as git writes it (`100644`, `40000`), its
/// name and the raw bytes of its object's ID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The mode, in git's encoding (no leading zero).
    pub(crate) mode: Vec<u8>,
    /// The name (any bytes but `/` and NUL).
    pub(crate) name: Vec<u8>,
    /// The object's ID, raw.
    pub(crate) id: Vec<u8>,
}

impl Entry {
    /// A file entry (mode `100644`) for the object `id` (hex); `None` when
    /// `id` is not hex.
    pub(crate) fn file(name: &str, id: &str) -> Option<Self> {
        Some(Self {
            mode: b"100644".to_vec(),
            name: name.as_bytes().to_vec(),
            id: hex::decode(id).ok()?,
        })
    }

    /// A directory entry (mode `40000`) for the tree `id` (hex).
    pub(crate) fn directory(name: &str, id: &str) -> Option<Self> {
        Some(Self {
            mode: b"40000".to_vec(),
            name: name.as_bytes().to_vec(),
            id: hex::decode(id).ok()?,
        })
    }

    /// The key git sorts a tree's entries by: the name, a directory's as if
    /// it ended in `/`.
    fn sort_key(&self) -> Vec<u8> {
        let mut key = self.name.clone();
        if self.mode == b"40000" {
            key.push(b'/');
        }
        key
    }
}

/// The tree object of `entries`, sorted as git sorts them (what `git
/// mktree` writes for the same entries).
pub(crate) fn tree(mut entries: Vec<Entry>) -> Object {
    entries.sort_by_cached_key(Entry::sort_key);
    let mut data = Vec::new();
    for entry in entries {
        data.extend_from_slice(&entry.mode);
        data.push(b' ');
        data.extend_from_slice(&entry.name);
        data.push(0);
        data.extend_from_slice(&entry.id);
    }
    Object {
        kind: Kind::Tree,
        data,
    }
}

/// The entries of a tree object's content (as `git cat-file` prints it);
/// `None` when it is not one.
pub(crate) fn entries(mut data: &[u8], format: Format) -> Option<Vec<Entry>> {
    let mut entries = Vec::new();
    while !data.is_empty() {
        let space = data.iter().position(|b| *b == b' ')?;
        let nul = space + 1 + data[space + 1..].iter().position(|b| *b == 0)?;
        let end = nul + 1 + format.len();
        entries.push(Entry {
            mode: data[..space].to_vec(),
            name: data[space + 1..nul].to_vec(),
            id: data.get(nul + 1..end)?.to_vec(),
        });
        data = &data[end..];
    }
    Some(entries)
}

/// A pack (version 2) of `objects`, for `git unpack-objects`: each stored
/// as a zlib stream of uncompressed blocks, since the objects live only
/// until git unpacks them, and git compresses what it writes itself.
pub(crate) fn pack(objects: &[Object], format: Format) -> Vec<u8> {
    let mut pack = b"PACK".to_vec();
    pack.extend_from_slice(&2u32.to_be_bytes());
    let count = u32::try_from(objects.len()).unwrap_or(u32::MAX);
    pack.extend_from_slice(&count.to_be_bytes());
    for object in objects {
        entry_header(&mut pack, object.kind.pack_type(), object.data.len());
        stored_zlib(&mut pack, &object.data);
    }
    let checksum = format.digest(&[&pack]);
    pack.extend_from_slice(&checksum);
    pack
}

/// A pack entry's header: its type and size, seven bits a byte after the
/// first four.
fn entry_header(out: &mut Vec<u8>, kind: u8, size: usize) {
    let mut byte = (kind << 4) | (size & 0x0f) as u8;
    let mut rest = size >> 4;
    while rest > 0 {
        out.push(byte | 0x80);
        byte = (rest & 0x7f) as u8;
        rest >>= 7;
    }
    out.push(byte);
}

/// `data` as a zlib stream of stored (uncompressed) deflate blocks.
fn stored_zlib(out: &mut Vec<u8>, data: &[u8]) {
    const BLOCK: usize = 0xffff;
    out.extend_from_slice(&[0x78, 0x01]);
    let mut chunks = data.chunks(BLOCK).peekable();
    if chunks.peek().is_none() {
        out.extend_from_slice(&[0x01, 0x00, 0x00, 0xff, 0xff]);
    }
    while let Some(chunk) = chunks.next() {
        out.push(u8::from(chunks.peek().is_none()));
        let len = u16::try_from(chunk.len()).unwrap_or(u16::MAX);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(chunk);
    }
    out.extend_from_slice(&adler32(data).to_be_bytes());
}

/// The Adler-32 checksum zlib ends a stream with.
fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65_521;
    let (mut a, mut b) = (1u32, 0u32);
    // 5,552 bytes is the most that cannot overflow before the modulo.
    for chunk in data.chunks(5552) {
        for byte in chunk {
            a += u32::from(*byte);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_those_git_prints() {
        // `printf 'hello\n' | git hash-object --stdin`, in both formats.
        let hello = Object::blob(b"hello\n");
        assert_eq!(
            hello.id(Format::Sha1),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
        assert_eq!(
            hello.id(Format::Sha256),
            "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4"
        );
        assert_eq!(
            tree(Vec::new()).id(Format::Sha1),
            "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
        );
    }

    #[test]
    fn trees_sort_and_encode_as_git_mktree_does() {
        let blob = Object::blob(b"hello\n").id(Format::Sha1);
        // `git mktree` of `a.b` (a file) and `a` (a directory): the
        // directory sorts as `a/`, after `a.b`.
        let listed = vec![
            Entry::directory("a", "4b825dc642cb6eb9a060e54bf8d69288fbee4904").unwrap(),
            Entry::file("a.b", &blob).unwrap(),
        ];
        let made = tree(listed);
        // `printf '040000 tree 4b82…\ta\0100644 blob ce01…\ta.b\0' | git mktree -z --missing`
        assert_eq!(
            made.id(Format::Sha1),
            "d7c70d9e0320d31c7b3e27f58316239bf3a79b27"
        );
        assert!(made.data.starts_with(b"100644 a.b\0"));
        let read = entries_of(&made);
        assert_eq!(read[0].name, b"a.b");
        assert_eq!(read[1].name, b"a");
        assert_eq!(read[1].mode, b"40000");
        assert_eq!(tree(read).data, made.data);
        assert_eq!(entries(b"100644 x\0short", Format::Sha1), None);
    }

    fn entries_of(tree: &Object) -> Vec<Entry> {
        entries(&tree.data, Format::Sha1).unwrap()
    }

    #[test]
    fn zlib_streams_and_pack_headers_are_well_formed() {
        let mut out = Vec::new();
        stored_zlib(&mut out, b"");
        assert_eq!(out, [0x78, 0x01, 0x01, 0x00, 0x00, 0xff, 0xff, 0, 0, 0, 1]);
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        let big = vec![7u8; 70_000];
        let mut out = Vec::new();
        stored_zlib(&mut out, &big);
        // Two blocks: 65,535 bytes, then the 4,465 left, the last marked final.
        assert_eq!(out[2], 0);
        assert_eq!(out[7 + 0xffff], 1);
        assert_eq!(out.len(), 2 + 5 + 0xffff + 5 + 4465 + 4);
        let mut header = Vec::new();
        entry_header(&mut header, 3, 300);
        assert_eq!(header, [0x80 | 0x30 | 0x0c, 18]);
        let pack = pack(&[Object::blob(b"x")], Format::Sha1);
        assert!(pack.starts_with(b"PACK\0\0\0\x02\0\0\0\x01"));
        assert_eq!(pack.len(), 12 + 1 + 2 + 5 + 1 + 4 + 20);
    }
}
