// Game: move list, result detection and recording.
#include "game.h"

#include "movegen.h"

namespace hisha::core {

const char* describe(EndReason r) {
    switch (r) {
    case EndReason::None: return "in progress";
    case EndReason::Checkmate: return "checkmate";
    case EndReason::NoLegalMoves: return "no legal move";
    case EndReason::Resignation: return "resignation";
    case EndReason::Sennichite: return "sennichite (fourfold repetition)";
    case EndReason::PerpetualCheck: return "perpetual check";
    case EndReason::Declaration: return "entering-king declaration";
    case EndReason::ImpasseCount: return "impasse count";
    case EndReason::TimeUp: return "time up";
    case EndReason::IllegalMove: return "illegal move";
    case EndReason::MoveLimit: return "move limit";
    case EndReason::Abort: return "aborted";
    case EndReason::SealedMove: return "sealed move";
    case EndReason::Disconnect: return "disconnection";
    case EndReason::Adjudication: return "adjudication";
    }
    return "";
}

Game::Game(GameRules rules) : rules_(rules), pos_(std::make_unique<Position>()) { reset(Handicap::Even); }

Result<void, ParseError> Game::reset(std::string_view sfen) {
    auto p = std::make_unique<Position>();
    if (auto r = p->set(sfen); !r)
        return r;
    pos_ = std::move(p);
    keys_.assign(1, pos_->key());
    start_sfen_ = pos_->sfen();
    handicap_ = handicap_from_sfen(start_sfen_);
    moves_.clear();
    result_ = GameResult{};
    return {};
}

void Game::reset(Handicap h) {
    auto r = reset(handicap_info(h).sfen);
    (void)r;  // the table's SFENs are valid (tested)
    handicap_ = h;
}

int Game::white_credit() const { return handicap_ ? handicap_info(*handicap_).removed_points : 0; }

Result<void, IllegalMove> Game::play(Move m) {
    if (over())
        return unexpected(IllegalMove::GameOver);
    if (auto r = pos_->try_play(m); !r)
        return r;
    moves_.push_back(m);
    keys_.push_back(pos_->key());
    judge_after_move();
    return {};
}

void Game::judge_after_move() {
    const Position& pos = *pos_;
    Color mover = ~pos.side_to_move();
    if (!has_legal_move(pos)) {
        finish(winner_of(mover), pos.in_check() ? EndReason::Checkmate : EndReason::NoLegalMoves);
        return;
    }
    // The history's keys are contiguous: counting earlier occurrences there is much cheaper
    // than walking the position's states, and the full judgement is needed only when the
    // position has occurred often enough to end the game.
    int earlier = 0;
    for (std::size_t i = keys_.size() - 1; i >= 2 && earlier + 1 < SENNICHITE_OCCURRENCES;) {
        i -= 2;
        earlier += keys_[i] == keys_.back();
    }
    Repetition rep = earlier + 1 < SENNICHITE_OCCURRENCES ? Repetition::None : judge_repetition(pos);
    switch (rep) {
    case Repetition::Draw: finish(Winner::Draw, EndReason::Sennichite); return;
    case Repetition::BlackLoses: finish(Winner::White, EndReason::PerpetualCheck); return;
    case Repetition::WhiteLoses: finish(Winner::Black, EndReason::PerpetualCheck); return;
    case Repetition::None: break;
    }
    if (rules_.max_plies > 0 && int(moves_.size()) >= rules_.max_plies) {
        if (rules_.limit_counts_impasse)
            finish_by_count(EndReason::MoveLimit);
        else
            finish(Winner::Draw, EndReason::MoveLimit);
    }
}

bool Game::undo() {
    if (moves_.empty())
        return false;
    pos_->unplay();
    moves_.pop_back();
    keys_.pop_back();
    result_ = GameResult{};
    return true;
}

void Game::finish(Winner w, EndReason r, std::string detail) {
    if (over())
        return;
    result_ = GameResult{w, r, std::move(detail)};
}

void Game::finish_by_count(EndReason r) {
    ImpasseCount c = count_impasse(*pos_, white_credit());
    std::string detail =
        "Black " + std::to_string(c.points[BLACK]) + " points, White " + std::to_string(c.points[WHITE]) + " points";
    finish(c.draw() ? Winner::Draw : winner_of(~c.loser()), r, detail);
}

void Game::resign(Color c) { finish(winner_of(~c), EndReason::Resignation); }

Result<void, DeclarationFailure> Game::declare() {
    if (over())
        return unexpected(DeclarationFailure::GameOver);
    if (rules_.impasse == ImpasseRule::Count24) {
        if (!both_kings_entered(*pos_))
            return unexpected(DeclarationFailure::KingNotInZone);
        finish_by_count(EndReason::ImpasseCount);
        return {};
    }
    DeclarationCheck d = check_declaration(*pos_, white_credit());
    if (!d.ok())
        return unexpected(d.failure);
    finish(winner_of(pos_->side_to_move()), EndReason::Declaration,
           std::to_string(d.points) + " points, " + std::to_string(d.pieces_in_zone) + " pieces in the zone");
    return {};
}

void Game::count_impasse_now() { finish_by_count(EndReason::ImpasseCount); }

void Game::time_up(Color c) { finish(winner_of(~c), EndReason::TimeUp); }

void Game::lose_by_illegal_move(Color c, std::string detail) {
    finish(winner_of(~c), EndReason::IllegalMove, std::move(detail));
}

void Game::abort(std::string detail) { finish(Winner::None, EndReason::Abort, std::move(detail)); }

}  // namespace hisha::core
