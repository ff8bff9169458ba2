// Wiring: settings, session, display, input and signals.
#include "interactive.h"

#include <csignal>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>
#include <unistd.h>

#include "controller.h"
#include "curses_ui.h"
#include "protocol/usi_engine.h"
#include "protocol/xshogi.h"
#include "text_ui.h"

namespace hisha::play {

namespace {

void play_on_interrupt(int) { Controller::interrupt_signals.fetch_add(1); }
void play_on_terminate(int) { Controller::terminate_signal.store(true); }

void install_signal_handlers() {
    struct sigaction sa {};
    sa.sa_handler = play_on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGUSR1, &sa, nullptr);  // xshogi's "stop thinking" on systems without FIONREAD
    sa.sa_handler = play_on_terminate;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGHUP, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
}

// Queues every line of `in`, then the end of input (an event too).
void queue_lines(std::istream& in, EventQueue& queue) {
    for (std::string line; std::getline(in, line);) {
        Event e;
        e.line = std::move(line);
        queue.push(std::move(e));
    }
    Event eof;
    eof.kind = Event::Kind::Eof;
    queue.push(std::move(eof));
}

// Reads lines into the queue on its own thread.
std::thread start_reader(std::istream& in, EventQueue& queue) {
    return std::thread([&in, &queue] { queue_lines(in, queue); });
}

int run_with(const Settings& settings, Ui& ui, EventQueue& queue) {
    Session session(settings);
    Controller controller(session, ui, queue);
    return controller.run();
}

}  // namespace

// The first line of a program started on pipes without -X tells its protocol: `usi` from a
// USI GUI, anything else from xshogi (which wants the banner first, before it says anything).
// Returns true when the first line was `usi`; otherwise `first` holds it (if any).
bool first_line_is_usi(std::istream& in, std::ostream& out, std::optional<std::string>& first) {
    out << protocol::xshogi::banner() << "\n" << std::flush;
    std::string line;
    if (!std::getline(in, line))
        return false;
    std::string word = line;
    while (!word.empty() && (word.back() == '\r' || word.back() == ' ' || word.back() == '\t'))
        word.pop_back();
    word.erase(0, word.find_first_not_of(" \t"));
    if (word == "usi")
        return true;
    first = std::move(line);
    return false;
}

int run_streams(const Settings& settings, std::istream& in, std::ostream& out) {
    EventQueue queue;
    std::unique_ptr<Ui> ui;
    if (settings.mode == DisplayMode::Xshogi) {
        std::optional<std::string> first;
        if (settings.detect_usi && first_line_is_usi(in, out, first)) {
            protocol::UsiEngine usi(in, out);
            usi.handle("usi");
            return usi.run();
        }
        if (first) {
            Event e;
            e.line = std::move(*first);
            queue.push(std::move(e));
        }
        ui = std::make_unique<XshogiUi>(out, !settings.detect_usi);
    } else {
        ui = std::make_unique<RawUi>(out, false);
    }
    if (&in != &std::cin) {
        // A stream that is all there (tests, scripts): queue it at once, so that the order of
        // lines and search reports never depends on thread timing.
        queue_lines(in, queue);
        return run_with(settings, *ui, queue);
    }
    std::thread reader = start_reader(in, queue);
    reader.detach();  // it may wait for input that never comes
    return run_with(settings, *ui, queue);
}

int run_interactive(const Settings& settings) {
    install_signal_handlers();
    if (settings.mode != DisplayMode::Curses) {
        std::ios::sync_with_stdio(false);
        // The reader thread reads std::cin while the main thread writes std::cout: untie them,
        // or every read flushes std::cout from the reader thread too (a data race that sent
        // xshogi the same machine move twice).
        std::cin.tie(nullptr);
        if (settings.mode == DisplayMode::Raw) {
            EventQueue queue;
            RawUi ui(std::cout, isatty(STDOUT_FILENO) != 0);
            std::thread reader = start_reader(std::cin, queue);
            reader.detach();
            return run_with(settings, ui, queue);
        }
        return run_streams(settings, std::cin, std::cout);
    }
    EventQueue queue;
    CursesUi ui;
    int rc = run_with(settings, ui, queue);
    ui.finish();
    return rc;
}

}  // namespace hisha::play
