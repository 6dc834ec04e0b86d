package dev.lockwarden.checks;

import dev.lockwarden.checks.JavaSource.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Java code block names, checked against the sources of every module ({@link JavaIndex}): each
 * class or annotation it names must be declared in the block, in the repository, in the JDK, or be a
 * library type the sources import (or one of {@link #EXTERNAL}); and the API it calls must exist: static
 * calls on a type of a module ({@code LockOptions.ttl(…)}, {@code LockwardenLockProvider.currentFence()}),
 * calls on a variable declared with one ({@code LockHandle lock = …; lock.fencingToken()}) or on a new
 * instance, every call chained after those (following each method's return type), constants
 * ({@code OnBusy.SKIP}), member types ({@code LockManager.Builder}) and the attributes given to an
 * annotation of a module ({@code @Locked(ttl = …)}). Static calls in the block's comments are checked too.
 */
final class ApiCheck {
    /**
     * Names a code block may use that neither the repository nor a library it imports declares: the reader's
     * own classes that the examples assume. Library types need no entry while a source imports them.
     */
    static final Set<String> EXTERNAL = Set.of("Receipt", "Account", "Report", "Chunk");

    private static final Pattern TYPE_NAME = Pattern.compile("(?<![\\w$.])[A-Z][\\w$]*");
    private static final Pattern DECLARED_TYPE =
            Pattern.compile("\\b(?:class|interface|enum|record)\\s+([A-Z][\\w$]*)|@\\s*interface\\s+([A-Z][\\w$]*)");
    private static final Pattern DECLARATION = Pattern.compile("\\b([A-Z]\\w*)(?:<[^>]*>)?\\s+(\\w+)\\s*(?:=|;|\\))");
    private static final Pattern STATIC_CALL = Pattern.compile("(?<![\\w$.])([A-Z]\\w*)\\s*\\.\\s*([a-z]\\w*)\\s*\\(");
    private static final Pattern NEW_CALL = Pattern.compile("\\bnew\\s+([A-Z]\\w*)\\s*(?:<[^>]*>)?\\s*\\(");
    private static final Pattern CONSTANT =
            Pattern.compile("(?<![\\w$.])([A-Z]\\w*)\\.([A-Z][A-Z0-9_]*)\\b(?!\\s*\\()");
    private static final Pattern MEMBER_TYPE =
            Pattern.compile("(?<![\\w$.])([A-Z]\\w*)\\.([A-Z]\\w*[a-z]\\w*)\\b(?!\\s*\\()");
    private static final Pattern ANNOTATION = Pattern.compile("@([A-Z]\\w*)\\s*\\(([^)]*)\\)");
    private static final Pattern ATTRIBUTE = Pattern.compile("(\\w+)\\s*=(?!=)");

    private static final Pattern QUALIFIED = Pattern.compile("\\b(?:[a-z]\\w*\\.)+[A-Z]\\w*(?:\\.[A-Z]\\w*)*");

    private final JavaIndex index;
    /** While checking a block: the classes it names in full, and the module of its page. */
    private Set<String> mentioned = Set.of();

    private String module = "";

    ApiCheck(JavaIndex index) {
        this.index = index;
    }

    /** The problems of a Java block on a page of {@code module} (a name of two modules' classes means its own). */
    List<Finding> check(String block, String module) {
        String code = JavaSource.blank(block, false);
        String comments = JavaSource.blank(block, true);
        List<Finding> problems = new ArrayList<>();
        this.module = module;
        this.mentioned = new HashSet<>();
        Matcher q = QUALIFIED.matcher(block);
        while (q.find()) {
            mentioned.add(q.group());
        }
        Set<String> declared = new HashSet<>();
        Matcher t = DECLARED_TYPE.matcher(code);
        while (t.find()) {
            declared.add(t.group(1) != null ? t.group(1) : t.group(2));
        }
        names(code, declared, problems);
        Matcher s = STATIC_CALL.matcher(code);
        while (s.find()) {
            type(s.group(1), declared).ifPresent(c -> chain(code, s.start(2), c, problems));
        }
        Matcher sc = STATIC_CALL.matcher(comments);
        while (sc.find()) {
            type(sc.group(1), declared).ifPresent(c -> chain(comments, sc.start(2), c, problems));
        }
        Matcher n = NEW_CALL.matcher(code);
        while (n.find()) {
            Optional<Type> c = type(n.group(1), declared);
            int close = JavaSource.matching(code, n.end() - 1, '(', ')');
            int dot = skipSpace(code, close + 1);
            if (c.isPresent() && dot < code.length() && code.charAt(dot) == '.') {
                chain(code, skipSpace(code, dot + 1), c.get(), problems);
            }
        }
        Matcher d = DECLARATION.matcher(code);
        while (d.find()) {
            Optional<Type> c = type(d.group(1), declared);
            if (c.isPresent()) {
                Matcher use = Pattern.compile("(?<![\\w$.])" + Pattern.quote(d.group(2)) + "\\s*\\.\\s*(?=\\w+\\s*\\()")
                        .matcher(code);
                while (use.find()) {
                    chain(code, use.end(), c.get(), problems);
                }
            }
        }
        Matcher k = CONSTANT.matcher(code);
        while (k.find()) {
            String constant = k.group(2);
            type(k.group(1), declared)
                    .filter(c -> !index.hasConstant(c, constant))
                    .ifPresent(
                            c -> problems.add(Finding.at(code, k.start(2), c.name + " has no constant " + constant)));
        }
        Matcher m = MEMBER_TYPE.matcher(code);
        while (m.find()) {
            String member = m.group(2);
            type(m.group(1), declared)
                    .filter(c -> index.memberType(c, member).isEmpty() && !index.hasUnknownSupertype(c))
                    .ifPresent(
                            c -> problems.add(Finding.at(code, m.start(2), c.name + " has no member type " + member)));
        }
        Matcher a = ANNOTATION.matcher(code);
        while (a.find()) {
            Optional<Type> annotation = type(a.group(1), declared).filter(c -> c.kind.equals("@interface"));
            if (annotation.isPresent()) {
                Matcher attribute = ATTRIBUTE.matcher(a.group(2));
                while (attribute.find()) {
                    String name = attribute.group(1);
                    if (annotation.get().methods.stream()
                            .noneMatch(x -> x.name().equals(name))) {
                        problems.add(Finding.at(
                                code, a.start(2) + attribute.start(1), "@" + a.group(1) + " has no attribute " + name));
                    }
                }
            }
        }
        return problems;
    }

    /** Every class or annotation the code names (once each) must exist. */
    private void names(String code, Set<String> declared, List<Finding> problems) {
        Set<String> seen = new HashSet<>();
        Matcher n = TYPE_NAME.matcher(code);
        while (n.find()) {
            String name = n.group();
            if (!name.chars().anyMatch(Character::isLowerCase) || !seen.add(name)) {
                continue; // a constant, or a type parameter such as T
            }
            if (!declared.contains(name)
                    && !index.declares(name)
                    && !index.imported(name)
                    && !EXTERNAL.contains(name)
                    && !index.inJdk(name)) {
                problems.add(Finding.at(code, n.start(), "no class or annotation named " + name));
            }
        }
    }

    /** Checks the call starting at {@code at} (a method name) on {@code type} and every call chained after it. */
    private void chain(String text, int at, Type type, List<Finding> problems) {
        int i = at;
        Type current = type;
        while (current != null) {
            int end = i;
            while (end < text.length() && Character.isJavaIdentifierPart(text.charAt(end))) {
                end++;
            }
            String name = text.substring(i, end);
            int open = skipSpace(text, end);
            if (name.isEmpty() || open >= text.length() || text.charAt(open) != '(') {
                return;
            }
            int close = JavaSource.matching(text, open, '(', ')');
            boolean noArguments = text.substring(open + 1, close).isBlank();
            JavaIndex.Lookup m = index.method(current, name, noArguments);
            if (!m.exists()) {
                problems.add(Finding.at(text, i, current.name + " has no method " + name + "(…)"));
                return;
            }
            int next = skipSpace(text, close + 1);
            if (next >= text.length() || text.charAt(next) != '.') {
                return;
            }
            i = skipSpace(text, next + 1);
            current = m.returns().orElse(null);
        }
    }

    /** The module type a simple name in a code block means, unless the block declares a type of that name. */
    private Optional<Type> type(String simpleName, Set<String> declared) {
        return declared.contains(simpleName) ? Optional.empty() : index.api(simpleName, mentioned, module);
    }

    private static int skipSpace(String text, int i) {
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }
}
