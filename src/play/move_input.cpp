// Reading typed moves through the notation modules.
#include "move_input.h"

#include "notation/coordinate.h"
#include "kanji.h"
#include "notation/western.h"

namespace hisha::play {

using namespace hisha::core;
using Status = MoveInput::Status;

namespace {

bool is_choice(const std::vector<Move>& found) {
    return found.size() == 2 && !found[0].is_drop() && found[0].from() == found[1].from()
        && found[0].to() == found[1].to() && found[0].is_promotion() != found[1].is_promotion();
}

MoveInput from_matches(const Position& pos, const notation::MoveSpec& spec, std::vector<Move> found) {
    MoveInput r;
    if (found.size() == 1) {
        r.status = Status::Ok;
        r.move = found[0];
        return r;
    }
    if (found.empty()) {
        r.status = Status::Illegal;
        r.reason = notation::explain_no_match(pos, spec);
        return r;
    }
    r.status = is_choice(found) ? Status::PromotionChoice : Status::Ambiguous;
    r.candidates = std::move(found);
    r.reason = r.status == Status::Ambiguous ? "ambiguous: " + notation::join_coordinates(r.candidates)
                                             : "promote or not?";
    return r;
}

bool has_non_ascii(std::string_view s) {
    for (char c : s)
        if (static_cast<unsigned char>(c) >= 0x80)
            return true;
    return false;
}

MoveInput read_japanese(const Position& pos, std::string_view text, Move previous) {
    MoveInput r;
    bool illegal = false;
    auto m = kanji::read_move(pos, text, previous, &illegal);
    if (m) {
        r.status = Status::Ok;
        r.move = *m;
        return r;
    }
    r.status = illegal ? Status::Illegal : Status::NotAMove;
    r.reason = m.error();
    return r;
}

}  // namespace

bool looks_like_move_text(std::string_view text) {
    if (text.empty())
        return false;
    if (has_non_ascii(text))
        return true;
    return notation::looks_like_move(text) || notation::parse_coordinate_spec(text).has_value()
        || notation::parse_western_spec(text).has_value();
}

MoveInput read_move_input(const Position& pos, std::string_view text, Move previous) {
    if (text.empty())
        return {};
    if (has_non_ascii(text))
        return read_japanese(pos, text, previous);
    if (auto spec = notation::parse_coordinate_spec(text)) {
        auto found = notation::coordinate_candidates(pos, text);
        if (found)
            return from_matches(pos, *spec, std::move(*found));
    }
    if (auto spec = notation::parse_western_spec(text)) {
        bool suffix = text.back() == '+' || text.back() == '=';
        if (suffix) {
            MoveInput r;
            auto m = notation::parse_western(pos, text);
            r.status = m ? Status::Ok : Status::Illegal;
            if (m)
                r.move = *m;
            else
                r.reason = m.error().message;
            return r;
        }
        // A Western move without a suffix is read as not promoting; for a player at the
        // keyboard an open promotion is a question, so match with the promotion left open.
        notation::MoveSpec open = *spec;
        open.promotion = notation::MoveSpec::Promotion::Open;
        return from_matches(pos, open, notation::matching_moves(pos, open));
    }
    MoveInput r;
    r.reason = "not a move or a command (try help)";
    return r;
}

}  // namespace hisha::play
