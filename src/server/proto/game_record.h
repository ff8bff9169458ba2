// A server game as a notation record, and the moves' comments as records and clients read them.
// The HTTP record download and the CSA monitors (%%MONITOR2ON) both write a game from here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "notation/record.h"
#include "server/service/service.h"

namespace hisha::server::proto {

/// The position the record's moves start from: the even start, or the start after a
/// handicap removal (the game's first entry).
std::string record_start_sfen(const service::LiveGame& g);

/// The game as a record: the players, "hisha game N", the time control, the handicap, every
/// board move with its time and its comment (record_comment()), the result.
notation::GameRecord game_record(const service::LiveGame& g);

/// A move's comment as records keep it. A CSA player sends it after its move
/// (`+7776FU,'* 120 -3334FU`) and the server keeps the text after the quote; Floodgate's
/// records write it with a '*' before it, `'** 120 -3334FU`, and so does this.
std::string record_comment(std::string_view move_comment);

/// The evaluation in a move's comment in Floodgate's form, "* <score> [<CSA move> ...]": the
/// score (centipawns, from Black's side) and the expected line. None when the comment is not
/// of that form.
struct MoveEval {
    int score = 0;
    std::vector<std::string> pv;
};
std::optional<MoveEval> read_eval(std::string_view move_comment);

/// A move as CSA writes it: a sign, four digits, a piece ("+7776FU").
bool looks_like_csa_move(std::string_view s);

}  // namespace hisha::server::proto
