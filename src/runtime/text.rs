// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Small text helpers every layer shares.

/// Quotes a caller's value for an error message, cut short so that a huge
/// argument does not come back as a huge error.
pub fn clip(text: &str) -> String {
    const MAX_CHARS: usize = 40;
    let mut clipped: String = text.chars().take(MAX_CHARS).collect();
    if clipped.len() < text.len() {
        clipped.push('…');
    }
    clipped.escape_debug().to_string()
}
