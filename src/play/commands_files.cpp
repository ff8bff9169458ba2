// Commands that read and write files: game records, xshogi positions, books, game lists.
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>

#include "board_view.h"
#include "commands.h"
#include "controller.h"
#include "gnu_save.h"
#include "notation/diagram.h"
#include "notation/formats.h"

namespace hisha::play {

using namespace hisha::core;

namespace {

// The file name of a command: its argument, the command-line default, or an answer.
std::optional<std::string> file_name(Controller& c, const CommandArgs& a, const std::string& preset,
                                     const std::string& fallback) {
    if (!a.rest.empty())
        return a.rest;
    if (!preset.empty())
        return preset;
    auto answer = c.ask(c.mode() == DisplayMode::Xshogi ? "" : "Enter file name: ");
    if (!answer)
        return std::nullopt;
    return answer->empty() ? fallback : *answer;
}

std::optional<std::string> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A file a command reads (its name as file_name finds it, with the -l default): none when
// there is no name or the file cannot be opened, which is said.
struct NamedFile {
    std::string name;
    std::string bytes;
};
std::optional<NamedFile> file_to_read(Controller& c, const CommandArgs& a, const std::string& fallback) {
    auto name = file_name(c, a, c.session().settings().load_path, fallback);
    if (!name)
        return std::nullopt;
    auto bytes = read_file(*name);
    if (!bytes) {
        c.ui().message("Cannot open " + *name);
        return std::nullopt;
    }
    return NamedFile{std::move(*name), std::move(*bytes)};
}

std::string error_text(const std::string& e) { return e; }
std::string error_text(const ParseError& e) { return e.to_string(); }

// True when reading or loading file `name` succeeded; else false, with "<name>: <error>" said.
template <class R>
bool succeeded(Controller& c, const std::string& name, const R& result) {
    if (result)
        return true;
    c.ui().message(name + ": " + error_text(result.error()));
    return false;
}

bool write_file(const std::string& path, const std::string& text, bool append = false) {
    std::ofstream out(path, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
    return out && out.write(text.data(), std::streamsize(text.size()));
}

std::string fixed(long long v, int width) {
    std::string s = std::to_string(v);
    return s.size() < std::size_t(width) ? std::string(std::size_t(width) - s.size(), ' ') + s : s;
}

// Pads to terminal columns (a kanji move counts two per character).
std::string padded(std::string s, int width) {
    int w = text_width(s);
    return w < width ? s + std::string(std::size_t(width - w), ' ') : s + " ";
}

}  // namespace

namespace {

// A name without an extension Hisha knows (game.sav, shogi.000) gets GNU Shogi's own format,
// which gnushogi's get reads.
bool save_gnu(Controller& c, const std::string& name) {
    if (!write_file(name, write_gnu_save(c.session().game(), c.session().options().force))) {
        c.ui().message("Cannot write " + name);
        return false;
    }
    c.ui().message("Saved the game to " + name + " (GNU Shogi)");
    return true;
}

// GNU Shogi's save file: its game (or only its position when its moves do not start from the
// initial position), and its force mode.
void get_gnu(Controller& c, const std::string& name, std::string_view bytes) {
    auto save = read_gnu_save(bytes);
    if (!succeeded(c, name, save) || !succeeded(c, name, c.session().load_record(save->record)))
        return;
    c.session().options().force = save->force;
    c.ui().message(save->moves_kept
                       ? "Loaded " + std::to_string(c.session().ply_count()) + " moves from " + name + " (GNU Shogi)"
                       : "Loaded the position of " + name
                             + " (GNU Shogi; its moves do not start from the initial position)");
    if (c.mode() != DisplayMode::Xshogi)
        c.ui().show_board(c.session());
}

}  // namespace

void cmd_save(Controller& c, const CommandArgs& a) {
    auto name = file_name(c, a, c.session().settings().save_path, "shogi.000");
    if (!name)
        return;
    if (!notation::format_from_extension(*name)) {
        save_gnu(c, *name);
        return;
    }
    auto format = *notation::format_from_extension(*name);
    notation::Encoding enc = format == notation::Format::Kif || format == notation::Format::Ki2
                               ? (name->ends_with("u") ? notation::Encoding::Utf8 : notation::Encoding::ShiftJis)
                               : notation::Encoding::Utf8;
    std::string text = notation::write_record(c.session().to_record(), format, enc);
    if (!write_file(*name, text)) {
        c.ui().message("Cannot write " + *name);
        return;
    }
    c.ui().message("Saved the game to " + *name + " (" + notation::format_name(format) + ")");
}

void cmd_get(Controller& c, const CommandArgs& a) {
    auto file = file_to_read(c, a, "shogi.000");
    if (!file)
        return;
    if (is_gnu_save(file->bytes)) {
        get_gnu(c, file->name, file->bytes);
        return;
    }
    auto rec = notation::read_record(file->bytes, file->name);
    if (!succeeded(c, file->name, rec) || !succeeded(c, file->name, c.session().load_record(*rec)))
        return;
    c.ui().message("Loaded " + std::to_string(c.session().ply_count()) + " moves from " + file->name);
    if (c.mode() != DisplayMode::Xshogi)
        c.ui().show_board(c.session());
    if (c.session().game().over())
        c.announce_result();
}

void cmd_xsave(Controller& c, const CommandArgs& a) {
    auto name = file_name(c, a, "", "shogi.pos");
    if (!name)
        return;
    std::string text =
        notation::write_xshogi_position(c.session().position(), "Hisha", notation::PositionFileHeader::Gnushogi);
    c.ui().message(write_file(*name, text) ? "Saved the position to " + *name : "Cannot write " + *name);
}

void cmd_xget(Controller& c, const CommandArgs& a) {
    auto file = file_to_read(c, a, "shogi.pos");
    if (!file)
        return;
    auto sfen = notation::read_xshogi_position(file->bytes);
    if (!succeeded(c, file->name, sfen) || !succeeded(c, file->name, c.session().set_position(*sfen)))
        return;
    c.ui().show_board(c.session());
}

void cmd_bsave(Controller& c, const CommandArgs& a) {
    auto name = file_name(c, a, "", "shogi.tbk");
    if (!name)
        return;
    const Session& s = c.session();
    std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d", std::localtime(&now));
    std::string text = std::string("# Hisha game ") + date + "\n";
    for (int i = 0; i < s.ply_count(); ++i)
        text += to_usi(s.game().moves()[std::size_t(i)]) + ((i + 1) % 10 == 0 ? "\n" : " ");
    if (text.back() == ' ')
        text.back() = '\n';
    c.ui().message(write_file(*name, text, true) ? "Added the game to the book " + *name : "Cannot write " + *name);
}

void cmd_list(Controller& c, const CommandArgs& a) {
    std::string name = a.rest.empty() ? "shogi.lst" : a.rest;
    const Session& s = c.session();
    std::ostringstream out;
    out << "Hisha game list: " << (s.game().over() ? describe(s.game().result().reason) : "in progress") << "\n";
    out << "Time control: " << s.clocks().control().describe() << "\n\n";
    out << "  ply  move        by       score  depth       nodes    time\n";
    for (int i = 0; i < s.ply_count(); ++i) {
        const PlyInfo& p = s.plies()[std::size_t(i)];
        char secs[32];
        std::snprintf(secs, sizeof secs, "%.1f", p.time_ms / 1000.0);
        out << fixed(i + 1, 5) << "  " << padded(s.move_text_at(i), 12) << padded(p.by_engine ? "Hisha" : "player", 6)
            << fixed(p.by_engine ? p.score : 0, 8) << fixed(p.depth, 7) << fixed((long long)p.nodes, 12)
            << std::string(8 - std::min<std::size_t>(8, std::string(secs).size()), ' ') << secs << "\n";
    }
    if (!write_file(name, out.str())) {
        c.ui().message("Cannot write " + name);
        return;
    }
    c.ui().message("Wrote the game list to " + name);
}

}  // namespace hisha::play
