package dev.lockwarden.cdi.broken;

import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.Future;

/** A Future cannot be followed: the lock would end before the work. */
@ApplicationScoped
public class ReturnsFuture {
    @Locked("job:{0}")
    public Future<String> run(String id) {
        return null;
    }
}
