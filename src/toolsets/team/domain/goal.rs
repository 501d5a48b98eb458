// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The goal's done-when condition: what must be true for the goal to be
//! met, for agents and people to check (the board counts the goal as met
//! only when every task is completed or cancelled).

use super::error::TeamError;
use super::text::check_line;
use crate::toolsets::planning::coordination::Edit;
use crate::toolsets::planning::domain::Board;

/// Sets the done-when condition of the goal (`""` removes it).
pub(crate) fn done_when(board: &Board, condition: &str) -> Result<Vec<Edit>, TeamError> {
    if board.goal().is_none() {
        return Err(TeamError::NoGoal);
    }
    if condition.is_empty() {
        return Ok(vec![Edit::DoneWhen(None)]);
    }
    let max = board.limits().max_goal_length;
    check_line("done-when condition", condition, max)?;
    Ok(vec![Edit::DoneWhen(Some(condition.to_owned()))])
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;
    use crate::toolsets::planning::domain::Limits;

    #[test]
    fn a_condition_needs_a_goal_and_one_line() {
        let mut board = Board::new(Limits::default(), true);
        assert_eq!(done_when(&board, "tests pass"), Err(TeamError::NoGoal));
        let _ = board.set_goal("Ship", "").unwrap();
        let edits = done_when(&board, "cargo test passes on main").unwrap();
        let _ = board.edit(SystemTime::UNIX_EPOCH, edits).unwrap();
        assert_eq!(
            board.coordination().done_when(),
            Some("cargo test passes on main")
        );
        assert!(done_when(&board, "a\nb").is_err());
        assert!(done_when(&board, " ").is_err());
        let cleared = done_when(&board, "").unwrap();
        let _ = board.edit(SystemTime::UNIX_EPOCH, cleared).unwrap();
        assert_eq!(board.coordination().done_when(), None);
    }
}
