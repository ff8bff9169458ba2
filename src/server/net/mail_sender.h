// MailSender: the network's side of the mail notifications (service/mail.h). The event loop takes
// the due mails from the queue one at a time and hands each to a thread of its own, which runs
// the SMTP conversation (smtp_client.h: blocking, with time limits) and posts the outcome back
// to the loop; a timer wakes the loop when the next retry is due. Sending never blocks the loop
// or a game: a slow or absent SMTP server only delays the mail.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include <memory>

#include "server/service/mail.h"

namespace hisha::server::net {

class MailSender {
public:
    MailSender(boost::asio::io_context& ioc, service::Mail& mail);
    ~MailSender();
    /// Sends what is due and listens for new mail.
    void start();
    /// No new conversation starts; the one running (if any) ends within its time limits.
    void stop();

private:
    void next();
    void arm();

    boost::asio::io_context& ioc_;
    service::Mail& mail_;
    boost::asio::steady_timer timer_;
    boost::asio::thread_pool thread_{1};
    bool busy_ = false, stopped_ = false;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace hisha::server::net
