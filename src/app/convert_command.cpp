// `hisha convert [--to FORMAT] [--encoding utf-8|sjis] IN [OUT]`: reads a game record in any
// format (detected) and writes it in another; `-` is standard input or output.
#include "convert_command.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "cli.h"
#include "notation/formats.h"
#include "read_file.h"

namespace hisha::app {

const char* const CONVERT_USAGE =
    "usage: hisha convert [--to FORMAT] [--encoding utf-8|sjis] IN [OUT]\n"
    "  FORMAT: kif kifu ki2 ki2u csa csa2.2 psn western xshogi sfen usi\n"
    "  IN/OUT may be '-' (standard input/output); without --to the format comes from OUT's\n"
    "  extension, else KIF. .kif and .ki2 files are written in Shift_JIS unless --encoding says.\n"
    "  example: hisha convert game.kif game.csa\n";

namespace {

int usage() {
    std::fputs(CONVERT_USAGE, stderr);
    return 2;
}
}  // namespace

int convert_command(int argc, char** argv) {
    std::string to, encoding, in, out;
    std::vector<std::string> files;
    Cli cli("hisha convert", CONVERT_USAGE);
    cli.option("--to", [&to](const std::string& v) {
        to = v;
        return notation::format_from_name(v)
                 ? std::string()
                 : refusal("--to", "is kif kifu ki2 ki2u csa csa2.2 psn western xshogi sfen usi", v);
    });
    cli.option("--encoding", [&encoding](const std::string& v) {
        encoding = v;
        bool known = v == "utf-8" || v == "utf8" || v == "sjis" || v == "shift_jis" || v == "cp932";
        return known ? std::string() : refusal("--encoding", "is utf-8 or sjis", v);
    });
    cli.positionals("FILES", files);
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    if (files.empty() || files.size() > 2)
        return usage();
    in = files[0];
    out = files.size() > 1 ? files[1] : "";

    std::string bytes;
    if (in == "-")
        bytes.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    else if (!read_file(in, bytes)) {
        std::fprintf(stderr, "hisha convert: cannot read %s\n", in.c_str());
        return 1;
    }

    std::optional<notation::Format> fmt;
    if (!to.empty() && !(fmt = notation::format_from_name(to))) {
        std::fprintf(stderr, "hisha convert: unknown format '%s'\n", to.c_str());
        return usage();
    }
    if (!fmt && !out.empty() && out != "-")
        fmt = notation::format_from_extension(out);
    if (!fmt)
        fmt = notation::Format::Kif;

    notation::Encoding enc = notation::Encoding::Utf8;
    std::string ext = out.size() > 4 ? out.substr(out.size() - 4) : "";
    if (encoding.empty() && (ext == ".kif" || ext == ".ki2"))
        enc = notation::Encoding::ShiftJis;
    if (encoding == "sjis" || encoding == "shift_jis" || encoding == "cp932")
        enc = notation::Encoding::ShiftJis;
    else if (!encoding.empty() && encoding != "utf-8" && encoding != "utf8") {
        std::fprintf(stderr, "hisha convert: unknown encoding '%s' (utf-8 or sjis)\n", encoding.c_str());
        return 2;
    }

    auto rec = notation::read_record(bytes, in == "-" ? std::string_view() : std::string_view(in));
    if (!rec) {
        std::fprintf(stderr, "%s: %s\n", in.c_str(), rec.error().to_string().c_str());
        return 1;
    }
    std::string text = notation::write_record(*rec, *fmt, enc);
    if (out.empty() || out == "-") {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    std::ofstream f(out, std::ios::binary);
    if (!(f << text)) {
        std::fprintf(stderr, "hisha convert: cannot write %s\n", out.c_str());
        return 1;
    }
    return 0;
}

const Subcommand CONVERT = {"convert", convert_command, CONVERT_USAGE};

}  // namespace hisha::app
