// The Japanese notation the interactive program uses (kanji boards, KI2 move text, moves
// typed in Japanese), behind names of its own: kanji.cpp implements them with
// notation/japanese.h, which the program's other files need not include.
#pragma once

#include <string>
#include <string_view>

#include "core/position.h"
#include "core/result.h"

namespace hisha::play::kanji {

std::string piece(core::PieceType pt);  // 歩 香 桂 銀 金 角 飛 玉 と 杏 圭 全 馬 龍
std::string file_digit(int file);      // １..９
std::string rank_digit(int rank);      // 一..九
std::string count(int n);              // 二, 十八
int columns(std::string_view text);    // terminal columns (kanji count two)
/// Splits the first UTF-8 character off `text`.
std::string_view first_char(std::string_view text);
/// "▲７六歩" style.
std::string move_text(const core::Position& before, core::Move m);
/// A move typed in KI2 or KIF style; the error says why it is no move here.
core::Result<core::Move, std::string> read_move(const core::Position& pos, std::string_view text,
                                                core::Move previous, bool* is_illegal);

}  // namespace hisha::play::kanji
