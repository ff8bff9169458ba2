// GameRecord helpers: headers, replay through the core, readable illegal-move reasons.
#include "record.h"

#include "core/movegen.h"

namespace hisha::notation {

std::string GameRecord::header(std::string_view k) const {
    for (const auto& h : headers)
        if (h.key == k)
            return h.value;
    return {};
}

void GameRecord::set_header(std::string_view k, std::string value) {
    for (auto& h : headers)
        if (h.key == k) {
            h.value = std::move(value);
            return;
        }
    headers.push_back({std::string(k), std::move(value)});
}

void GameRecord::set_handicap(core::Handicap h) {
    handicap = h;
    start_sfen = std::string(core::handicap_info(h).sfen);
}

std::vector<core::Move> GameRecord::main_line() const {
    std::vector<core::Move> v;
    v.reserve(moves.size());
    for (const auto& m : moves)
        v.push_back(m.move);
    return v;
}

std::unique_ptr<core::Position> start_position(const GameRecord& rec) {
    auto pos = std::make_unique<core::Position>();
    if (!pos->set(rec.start_sfen, core::SfenRules::Relaxed))
        pos->set_startpos();
    return pos;
}

Result<std::unique_ptr<core::Position>, ParseError> final_position(const GameRecord& rec) {
    auto pos = std::make_unique<core::Position>();
    if (auto r = pos->set(rec.start_sfen, core::SfenRules::Relaxed); !r)
        return core::unexpected(r.error());
    for (std::size_t i = 0; i < rec.moves.size(); ++i) {
        core::Move m = rec.moves[i].move;
        if (auto r = pos->try_play(m); !r)
            return core::unexpected(ParseError{ParseErrorCode::IllegalMove,
                                               "move " + std::to_string(i + 1) + " (" + core::to_usi(m)
                                                   + "): " + explain_illegal(*pos, m, r.error()),
                                               0, 0});
    }
    return pos;
}

Result<void, ParseError> replay(const GameRecord& rec, core::Game& game) {
    if (auto r = game.reset(rec.start_sfen); !r)
        return r;
    for (std::size_t i = 0; i < rec.moves.size(); ++i) {
        core::Move m = rec.moves[i].move;
        if (auto r = game.play(m); !r)
            return core::unexpected(ParseError{ParseErrorCode::IllegalMove,
                                               "move " + std::to_string(i + 1) + " (" + core::to_usi(m)
                                                   + "): " + explain_illegal(game.position(), m, r.error()),
                                               0, 0});
    }
    return {};
}

std::string explain_illegal(const core::Position& pos, core::Move m, core::IllegalMove why) {
    using core::IllegalMove;
    using core::square_to_usi;
    switch (why) {
    case IllegalMove::TwoPawns:
        return "two pawns on file " + std::to_string(core::file_of(m.to()) + 1);
    case IllegalMove::NotYourPiece:
        return m.is_drop() ? "not a move of the side to move"
                           : "no " + std::string(pos.side_to_move() == core::BLACK ? "Black" : "White")
                                 + " piece on " + square_to_usi(m.from());
    case IllegalMove::CannotReach:
        return "the piece on " + square_to_usi(m.from()) + " cannot move to " + square_to_usi(m.to());
    case IllegalMove::Occupied:
        return square_to_usi(m.to()) + " is occupied";
    case IllegalMove::DeadPiece:
        return "a piece on " + square_to_usi(m.to()) + " could never move again (it must promote)";
    default:
        return core::describe(why);
    }
}

ParseError move_error(int line, int column, std::string_view move_text, std::string reason) {
    return ParseError{ParseErrorCode::IllegalMove, std::string(move_text) + ": " + std::move(reason), line, column};
}

}  // namespace hisha::notation
