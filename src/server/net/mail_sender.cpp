// MailSender: see mail_sender.h.
#include "server/net/mail_sender.h"

#include <boost/asio/post.hpp>

#include <chrono>

#include "server/net/below_loop.h"
#include "server/net/smtp_client.h"

namespace hisha::server::net {

namespace asio = boost::asio;

MailSender::MailSender(asio::io_context& ioc, service::Mail& mail) : ioc_(ioc), mail_(mail), timer_(ioc) {}

MailSender::~MailSender() {
    stop();
    thread_.join();
}

void MailSender::start() {
    mail_.wake = [this] {
        if (!busy_ && !stopped_)  // after the operation that queued it, not inside it
            asio::post(ioc_, [this, alive = std::weak_ptr<bool>(alive_)] {
                if (alive.lock())
                    next();
            });
    };
    next();
}

void MailSender::stop() {
    stopped_ = true;
    mail_.wake = nullptr;
    timer_.cancel();
    thread_.stop();
}

void MailSender::next() {
    if (busy_ || stopped_)
        return;
    if (!mail_.sender_here()) {  // another server on the shared database sends; ask again in a second
        timer_.expires_after(std::chrono::seconds(1));
        timer_.async_wait([this](boost::system::error_code ec) {
            if (!ec)
                next();
        });
        return;
    }
    auto due = mail_.take_due(1);
    if (due.empty()) {
        arm();
        return;
    }
    busy_ = true;
    asio::post(thread_, [this, m = std::move(due.front()), config = mail_.config(),
                         alive = std::weak_ptr<bool>(alive_)]() mutable {
        run_below_the_loop("mail");
        service::MailOutcome o = smtp_send(config, m.address, m.message);
        asio::post(ioc_, [this, m = std::move(m), o = std::move(o), alive]() mutable {
            if (!alive.lock())
                return;
            busy_ = false;
            mail_.done(std::move(m), o);
            next();
        });
    });
}

void MailSender::arm() {
    // Nothing queued: wake() starts the next, or, on a database other servers queue mail in too,
    // a look every second.
    service::Millis at = mail_.next_due();
    using namespace std::chrono;
    service::Millis now = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    if (mail_.shared())
        at = at == 0 ? now + 1000 : std::min(at, now + 1000);
    if (at == 0)
        return;
    timer_.expires_after(milliseconds(std::max<service::Millis>(10, at - now)));
    timer_.async_wait([this](boost::system::error_code ec) {
        if (!ec)
            next();
    });
}

}  // namespace hisha::server::net
