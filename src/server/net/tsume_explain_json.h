// POST /api/tsume with "explain": true: the explanation of a solved problem (tsume/explain.h)
// as JSON, its moves in the API's move form (JsonApi::move_json: usi, western, ja, ...).
#pragma once

#include <nlohmann/json.hpp>

#include "core/position.h"
#include "tsume/explain.h"

namespace hisha::server::net {

/// {defences: [{ply, played, remaining, others: [{move, verdict, length, line}]}],
///  yozume: [{ply, played, remaining, move, length, line}], undecided: [{ply, played, move}],
///  questions, timeouts}: `played`, `move` and `line` are move objects; `start` is the problem.
nlohmann::json explanation_api_json(core::Position& start, const tsume::Explanation& e);

/// POST /api/tsume's answer: {status: mate|nomate|timeout|error, length, exact, moves, nodes,
/// time_ms, unique, error}, and with `explain` the explanation_api_json() as explain.
nlohmann::json tsume_api_json(core::Position& start, const tsume::Explanation& e, bool explain);

}  // namespace hisha::server::net
