package dev.lockwarden.examples.jakarta;

import dev.lockwarden.LockNotAcquiredException;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;

/**
 * The HTTP face of the shop, plain text:
 * {@code PUT /payments/ID} creates a payment; {@code POST /payments/ID/charge} charges it (through the
 * {@code @Locked} EJB); {@code POST /payments/ID/charge-unlocked} is the control without the lock;
 * {@code GET /payments/ID} shows its status and how often the card was charged.
 */
@WebServlet("/payments/*")
public class PaymentServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @EJB
    transient Payments payments;

    @Inject
    transient Ledger ledger;

    @Inject
    transient CardNetwork card;

    @Override
    protected void doPut(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String[] path = path(req);
        if (path.length != 1) {
            resp.sendError(404, "PUT /payments/ID");
            return;
        }
        answer(resp, () -> ledger.create(path[0]) ? "created " + path[0] : "exists " + path[0]);
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String[] path = path(req);
        if (path.length != 2 || !path[1].matches("charge|charge-unlocked")) {
            resp.sendError(404, "POST /payments/ID/charge or /payments/ID/charge-unlocked");
            return;
        }
        answer(resp, () -> {
            Receipt r = path[1].equals("charge") ? payments.charge(path[0]) : payments.chargeUnlocked(path[0]);
            return (r.replayed() ? "already charged " : "charged ") + r.confirmation();
        });
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String[] path = path(req);
        if (path.length != 1) {
            resp.sendError(404, "GET /payments/ID");
            return;
        }
        answer(resp, () -> {
            String status = ledger.find(path[0]).map(Ledger.Entry::status).orElse("NONE");
            return "status=" + status + " cardCharges=" + card.charges(path[0]);
        });
    }

    private static String[] path(HttpServletRequest req) {
        String info = req.getPathInfo();
        return info == null || info.length() < 2
                ? new String[0]
                : info.substring(1).split("/");
    }

    private interface Action {
        String run() throws SQLException;
    }

    private static void answer(HttpServletResponse resp, Action action) throws IOException {
        resp.setContentType("text/plain");
        try {
            resp.getWriter().print(action.run());
        } catch (LockNotAcquiredException busy) {
            resp.setStatus(409);
            resp.getWriter().print("busy: another request for " + busy.lockName() + " is still being processed");
        } catch (UnknownPaymentException | StaleHolderException refused) {
            resp.setStatus(409);
            resp.getWriter().print(refused.getMessage());
        } catch (SQLException e) {
            resp.setStatus(500);
            resp.getWriter().print("database error: " + e.getMessage());
        }
    }
}
