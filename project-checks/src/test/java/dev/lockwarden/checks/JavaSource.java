package dev.lockwarden.checks;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Java source file read as far as the doc checks need it, without compiling it: its package and
 * imports, and every type it declares with that type's modifiers, annotations, supertypes, methods
 * (name, parameter count, return type as written), fields and enum constants. Good enough for the
 * formatted sources of this repository, not a Java parser.
 */
final class JavaSource {
    private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");
    private static final Pattern IMPORT = Pattern.compile("(?m)^\\s*import\\s+(static\\s+)?([\\w.]+?)(\\.\\*)?\\s*;");
    private static final Pattern TYPE = Pattern.compile(
            "(?<![\\w$.@])(class|interface|enum|record)\\s+([A-Za-z_$][\\w$]*)|@\\s*interface\\s+([A-Za-z_$][\\w$]*)");
    private static final Pattern CALL = Pattern.compile("([A-Za-z_$][\\w$]*)\\s*\\(");
    private static final Pattern FIELD = Pattern.compile("([A-Za-z_$][\\w$]*)\\s*(?:=(?!=)|;)");
    static final Set<String> MODIFIERS = Set.of(
            "public",
            "protected",
            "private",
            "static",
            "final",
            "abstract",
            "sealed",
            "non-sealed",
            "strictfp",
            "synchronized",
            "native",
            "transient",
            "volatile",
            "default");
    private static final Set<String> NOT_A_TYPE = Set.of(
            "new",
            "return",
            "throw",
            "else",
            "case",
            "record",
            "enum",
            "class",
            "interface",
            "extends",
            "implements",
            "throws",
            "permits",
            "package",
            "import",
            "assert",
            "yield",
            "instanceof");
    private static final Set<String> KEYWORDS = Set.of(
            "if",
            "for",
            "while",
            "switch",
            "catch",
            "synchronized",
            "return",
            "new",
            "super",
            "this",
            "try",
            "do",
            "else",
            "throw",
            "assert",
            "record",
            "class",
            "interface",
            "enum");

    /** An annotation as written: its (possibly qualified) name and the text between its parentheses, or null. */
    record Annotation(String name, String arguments) {
        String simpleName() {
            return name.substring(name.lastIndexOf('.') + 1);
        }
    }

    /** A method or an annotation's attribute: {@code returns} is the return type's simple name as written. */
    record Method(String name, int parameters, String returns, Set<String> modifiers, List<Annotation> annotations) {}

    /** A field: its type's simple name as written. */
    record Field(String name, String type, Set<String> modifiers, List<Annotation> annotations) {}

    /** A declared type. {@code outer} is the type it is declared in, or null for a top-level one. */
    static final class Type {
        final JavaSource source;
        final String kind;
        final String name;
        final Type outer;
        final Set<String> modifiers;
        final List<Annotation> annotations;
        /** Simple names, as written, of the superclass ({@code extends} of a class) … */
        final List<String> superclasses = new ArrayList<>();
        /** … and of the interfaces it implements (or, for an interface, extends). */
        final List<String> interfaces = new ArrayList<>();

        final List<Method> methods = new ArrayList<>();
        final List<Field> fields = new ArrayList<>();
        final List<String> constants = new ArrayList<>();
        final List<Type> members = new ArrayList<>();
        final int bodyOpen;
        final int bodyClose;

        Type(
                JavaSource source,
                String kind,
                String name,
                Type outer,
                Set<String> modifiers,
                List<Annotation> annotations,
                int bodyOpen,
                int bodyClose) {
            this.source = source;
            this.kind = kind;
            this.name = name;
            this.outer = outer;
            this.modifiers = modifiers;
            this.annotations = annotations;
            this.bodyOpen = bodyOpen;
            this.bodyClose = bodyClose;
        }

        /** {@code dev.lockwarden.LockManager.Builder}. */
        String qualifiedName() {
            return outer != null
                    ? outer.qualifiedName() + "." + name
                    : source.pkg.isEmpty() ? name : source.pkg + "." + name;
        }

        boolean isInterface() {
            return kind.equals("interface") || kind.equals("@interface");
        }

        /** Public, or a member of an interface (implicitly public), in a type that is itself public. */
        boolean isPublic() {
            boolean own = modifiers.contains("public") || (outer != null && outer.isInterface());
            return own && (outer == null || outer.isPublic());
        }

        /** A member that code outside the type can call: public, or not private in an interface. */
        boolean isPublic(Set<String> memberModifiers) {
            return memberModifiers.contains("public") || (isInterface() && !memberModifiers.contains("private"));
        }

        Optional<Annotation> annotation(String simpleName) {
            return annotations.stream()
                    .filter(a -> a.simpleName().equals(simpleName))
                    .findFirst();
        }

        @Override
        public String toString() {
            return qualifiedName();
        }
    }

    final String text;
    /** The text with comments and the contents of string and character literals blanked: same offsets. */
    final String code;

    final String pkg;
    /** Single-type imports: simple name to qualified name. */
    final Map<String, String> imports = new HashMap<>();
    /** Packages (or types) imported with {@code .*}. */
    final List<String> wildcards = new ArrayList<>();

    final List<Type> types = new ArrayList<>();

    JavaSource(String text) {
        this.text = text;
        this.code = blank(text, false);
        Matcher p = PACKAGE.matcher(code);
        this.pkg = p.find() ? p.group(1) : "";
        Matcher i = IMPORT.matcher(code);
        while (i.find()) {
            if (i.group(1) != null) {
                continue;
            }
            if (i.group(3) != null) {
                wildcards.add(i.group(2));
            } else {
                imports.put(i.group(2).substring(i.group(2).lastIndexOf('.') + 1), i.group(2));
            }
        }
        parseTypes();
    }

    /**
     * Blanks comments and the contents of string, text block and character literals (keeping the quotes and
     * line breaks), or with {@code commentsOnly} keeps only the comments' text: either way offsets and line
     * numbers stay those of {@code src}.
     */
    static String blank(String src, boolean commentsOnly) {
        StringBuilder out = new StringBuilder(src.length());
        int i = 0;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
                int end = src.indexOf('\n', i);
                end = end < 0 ? n : end;
                out.append(commentsOnly ? src.substring(i, end) : spaces(src, i, end));
                i = end;
            } else if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
                int end = src.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                out.append(commentsOnly ? src.substring(i, end) : spaces(src, i, end));
                i = end;
            } else if (c == '"' || c == '\'') {
                boolean textBlock = src.startsWith("\"\"\"", i);
                String quote = textBlock ? "\"\"\"" : String.valueOf(c);
                int j = i + quote.length();
                while (j < n && !src.startsWith(quote, j) && (textBlock || src.charAt(j) != '\n')) {
                    j += src.charAt(j) == '\\' ? 2 : 1;
                }
                int end = Math.min(n, j + (src.startsWith(quote, j) ? quote.length() : 0));
                if (commentsOnly) {
                    out.append(spaces(src, i, end));
                } else {
                    int inner = Math.min(end, j);
                    out.append(quote)
                            .append(spaces(src, i + quote.length(), inner))
                            .append(src, inner, end);
                }
                i = end;
            } else {
                out.append(commentsOnly && c != '\n' ? ' ' : c);
                i++;
            }
        }
        return out.toString();
    }

    private static String spaces(String src, int from, int to) {
        StringBuilder s = new StringBuilder(Math.max(0, to - from));
        for (int k = from; k < to; k++) {
            s.append(src.charAt(k) == '\n' ? '\n' : ' ');
        }
        return s.toString();
    }

    private void parseTypes() {
        Matcher m = TYPE.matcher(code);
        while (m.find()) {
            String kind = m.group(3) != null ? "@interface" : m.group(1);
            String name = m.group(3) != null ? m.group(3) : m.group(2);
            int nameEnd = m.end();
            int open = bodyOpen(nameEnd);
            if (open < 0 || ((kind.equals("record") || kind.equals("enum")) && !declaresType(kind, nameEnd, open))) {
                continue;
            }
            int close = matching(code, open, '{', '}');
            Type outer = null;
            for (Type t : types) {
                if (t.bodyOpen < m.start() && m.start() < t.bodyClose) {
                    outer = t; // the innermost: later types are nested deeper
                }
            }
            Prefix prefix = prefix(m.start());
            Type type = new Type(this, kind, name, outer, prefix.modifiers, prefix.annotations, open, close);
            if (outer != null) {
                outer.members.add(type);
            }
            types.add(type);
            header(type, code.substring(nameEnd, open));
        }
        for (Type t : types) {
            members(t);
        }
    }

    /** A record or enum keyword followed by a name is a declaration when a body follows: not {@code record = x;}. */
    private boolean declaresType(String kind, int nameEnd, int open) {
        String between = code.substring(nameEnd, open).strip();
        return kind.equals("record") ? between.startsWith("(") || between.startsWith("<") : !between.contains(";");
    }

    /** The body's opening brace: the first one after the name outside the record header and type parameters. */
    private int bodyOpen(int from) {
        int depth = 0;
        for (int i = from; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '(' || c == '<') {
                depth++;
            } else if (c == ')' || (c == '>' && code.charAt(i - 1) != '-')) {
                depth--;
            } else if (c == '{' && depth <= 0) {
                return i;
            } else if (c == ';' && depth <= 0) {
                return -1;
            }
        }
        return -1;
    }

    private void header(Type type, String header) {
        String h = header;
        if (type.kind.equals("record")) {
            int open = h.indexOf('(');
            int close = open < 0 ? -1 : matching(h, open, '(', ')');
            if (open >= 0) {
                for (String component : splitTopLevel(h.substring(open + 1, close))) {
                    String[] words = withoutAnnotations(component).trim().split("\\s+");
                    if (words.length >= 2) {
                        String componentType =
                                rawName(String.join(" ", List.of(words).subList(0, words.length - 1)));
                        type.methods.add(
                                new Method(words[words.length - 1], 0, componentType, Set.of("public"), List.of()));
                        type.fields.add(
                                new Field(words[words.length - 1], componentType, Set.of("private"), List.of()));
                    }
                }
                h = h.substring(0, open) + h.substring(close + 1);
            }
        }
        h = h.replaceAll("(?s)^\\s*<.*?>(?=\\s*(extends|implements|permits|$))", " ");
        Matcher clause = Pattern.compile("\\b(extends|implements|permits)\\b").matcher(h);
        List<int[]> marks = new ArrayList<>();
        while (clause.find()) {
            marks.add(new int[] {clause.start(), clause.end()});
        }
        for (int k = 0; k < marks.size(); k++) {
            String word = h.substring(marks.get(k)[0], marks.get(k)[1]);
            int end = k + 1 < marks.size() ? marks.get(k + 1)[0] : h.length();
            List<String> names = new ArrayList<>();
            for (String t : splitTopLevel(h.substring(marks.get(k)[1], end))) {
                if (!t.isBlank()) {
                    names.add(rawName(t));
                }
            }
            if (word.equals("extends") && !type.isInterface()) {
                type.superclasses.addAll(names);
            } else if (!word.equals("permits")) {
                type.interfaces.addAll(names);
            }
        }
    }

    /** The members declared directly in the type's body: methods, fields, enum constants. */
    private void members(Type type) {
        String shallow = shallow(type);
        int from = type.bodyOpen + 1;
        if (type.kind.equals("enum")) {
            int end = endOfConstants(shallow, from, type.bodyClose);
            String section = shallow.substring(from, end);
            String flat = section.replaceAll("\\{[^{}]*}", "");
            String previous;
            do {
                previous = flat;
                flat = flat.replaceAll("\\([^()]*\\)", "");
            } while (!flat.equals(previous));
            for (String constant : flat.split(",")) {
                String c = withoutAnnotations(constant).strip();
                if (c.matches("[A-Za-z_$][\\w$]*")) {
                    type.constants.add(c);
                }
            }
            from = end;
        }
        Matcher call = CALL.matcher(shallow);
        call.region(from, type.bodyClose);
        while (call.find()) {
            String name = call.group(1);
            if (KEYWORDS.contains(name)) {
                continue;
            }
            Declared d = declared(shallow, call.start());
            if (d == null || !d.explicitType) {
                continue; // not a declaration, or a constructor
            }
            int close = matching(shallow, call.end() - 1, '(', ')');
            String params = shallow.substring(call.end(), Math.max(call.end(), close));
            int count = params.isBlank() ? 0 : splitTopLevel(params).size();
            type.methods.add(new Method(name, count, d.returns, d.prefix.modifiers, d.prefix.annotations));
        }
        Matcher field = FIELD.matcher(shallow);
        field.region(from, type.bodyClose);
        while (field.find()) {
            Declared d = declared(shallow, field.start());
            if (d != null && d.explicitType) {
                type.fields.add(new Field(field.group(1), d.returns, d.prefix.modifiers, d.prefix.annotations));
            }
        }
    }

    private static int endOfConstants(String shallow, int from, int to) {
        int depth = 0;
        for (int i = from; i < to; i++) {
            char c = shallow.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ';' && depth == 0) {
                return i + 1;
            }
        }
        return to;
    }

    private record Declared(String returns, boolean explicitType, Prefix prefix) {}

    /**
     * When a type (then modifiers and annotations) comes right before {@code nameStart}, the member declared
     * there: a method, constructor or field. Null for a call, an annotation, an assignment ….
     */
    private Declared declared(String shallow, int nameStart) {
        int i = skipSpaceBack(shallow, nameStart);
        if (i == 0) {
            return null;
        }
        char before = shallow.charAt(i - 1);
        if (before == '.' || before == '>' && i >= 2 && shallow.charAt(i - 2) == '-') {
            return null; // a qualified name's part, or a lambda's body
        }
        int typeEnd = i;
        while (i > 0 && shallow.charAt(i - 1) == ']') {
            int open = shallow.lastIndexOf('[', i - 1);
            i = skipSpaceBack(shallow, open);
        }
        if (i > 0 && shallow.charAt(i - 1) == '>') {
            int depth = 0;
            int k = i - 1;
            for (; k >= 0; k--) {
                char c = shallow.charAt(k);
                if (c == '>') {
                    depth++;
                } else if (c == '<' && --depth == 0) {
                    break;
                } else if (c == ';' || c == '{' || c == '}' || c == '=') {
                    return null;
                }
            }
            if (k < 0) {
                return null;
            }
            i = skipSpaceBack(shallow, k);
        }
        int wordEnd = i;
        while (i > 0 && (Character.isJavaIdentifierPart(shallow.charAt(i - 1)) || shallow.charAt(i - 1) == '.')) {
            i--;
        }
        if (i == wordEnd) {
            return null;
        }
        String word = shallow.substring(i, wordEnd);
        if (i > 0 && shallow.charAt(i - 1) == '@'
                || word.startsWith(".")
                || word.endsWith(".")
                || NOT_A_TYPE.contains(word)) {
            return null;
        }
        if (MODIFIERS.contains(word)) {
            return new Declared(word, false, prefix(nameStart)); // a constructor: modifiers right before the name
        }
        if (!Character.isJavaIdentifierStart(word.charAt(0))) {
            return null;
        }
        return new Declared(rawName(shallow.substring(i, typeEnd)), true, prefix(i));
    }

    private record Prefix(Set<String> modifiers, List<Annotation> annotations) {}

    /** The modifiers and annotations written right before {@code at}, read backwards. */
    private Prefix prefix(int at) {
        Set<String> modifiers = new LinkedHashSet<>();
        List<Annotation> annotations = new ArrayList<>();
        int i = at;
        while (true) {
            i = skipSpaceBack(code, i);
            if (i == 0) {
                break;
            }
            char c = code.charAt(i - 1);
            String arguments = null;
            int nameEnd = i;
            if (c == '>') { // a generic method's type parameters
                int depth = 0;
                int k = i - 1;
                for (; k >= 0; k--) {
                    if (code.charAt(k) == '>') {
                        depth++;
                    } else if (code.charAt(k) == '<' && --depth == 0) {
                        break;
                    }
                }
                if (k < 0) {
                    break;
                }
                i = k;
                continue;
            }
            if (c == ')') {
                int open = matchingBack(code, i - 1);
                if (open < 0) {
                    break;
                }
                arguments = text.substring(open + 1, i - 1);
                nameEnd = skipSpaceBack(code, open);
            }
            int start = nameEnd;
            while (start > 0
                    && (Character.isJavaIdentifierPart(code.charAt(start - 1))
                            || code.charAt(start - 1) == '.'
                            || code.charAt(start - 1) == '-')) {
                start--;
            }
            if (start == nameEnd) {
                break;
            }
            String word = code.substring(start, nameEnd);
            int at2 = skipSpaceBack(code, start);
            if (at2 > 0 && code.charAt(at2 - 1) == '@') {
                annotations.add(0, new Annotation(word, arguments));
                i = at2 - 1;
            } else if (arguments == null && MODIFIERS.contains(word)) {
                modifiers.add(word);
                i = start;
            } else {
                break;
            }
        }
        return new Prefix(modifiers, annotations);
    }

    /**
     * The type's body with everything nested in it (method bodies, nested types, initializers) blanked,
     * keeping array initializers such as an annotation's {@code {"-p", "--port"}}.
     */
    private String shallow(Type type) {
        char[] s = code.toCharArray();
        Deque<Boolean> braces = new ArrayDeque<>(); // true: a block, false: an array initializer
        int depth = 0;
        for (int i = type.bodyOpen + 1; i < type.bodyClose; i++) {
            char c = s[i];
            if (c == '{') {
                int p = skipSpaceBack(code, i);
                char prev = p > 0 ? code.charAt(p - 1) : ';';
                boolean array = "=(,]".indexOf(prev) >= 0 || (!braces.isEmpty() && !braces.peek());
                braces.push(!array);
                if (!array) {
                    depth++;
                    if (depth > 1) {
                        s[i] = ' ';
                    }
                    continue;
                }
            } else if (c == '}' && !braces.isEmpty()) {
                if (braces.pop()) {
                    depth--;
                    if (depth > 0) {
                        s[i] = ' ';
                    }
                    continue;
                }
            }
            if (depth > 0 && c != '\n') {
                s[i] = ' ';
            }
        }
        return new String(s);
    }

    /** {@code Map<String, List<X>>[]} → {@code Map}; {@code a.b.C} → {@code C}. */
    static String rawName(String typeAsWritten) {
        String t = withoutAnnotations(typeAsWritten).strip();
        int lt = t.indexOf('<');
        if (lt >= 0) {
            t = t.substring(0, lt);
        }
        t = t.replace("[]", "").replace("...", "").strip();
        String[] words = t.split("\\s+");
        t = words[words.length - 1];
        return t.substring(t.lastIndexOf('.') + 1);
    }

    private static String withoutAnnotations(String s) {
        return s.replaceAll("@[\\w.]+(\\s*\\([^)]*\\))?", " ");
    }

    /** Splits at commas outside parentheses, angle brackets and braces. */
    static List<String> splitTopLevel(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(' || c == '<' || c == '{' || c == '[') {
                depth++;
            } else if (c == ')' || (c == '>' && (i == 0 || s.charAt(i - 1) != '-')) || c == '}' || c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(s.substring(start));
        return parts;
    }

    static int matching(String s, int open, char o, char c) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            if (s.charAt(i) == o) {
                depth++;
            } else if (s.charAt(i) == c && --depth == 0) {
                return i;
            }
        }
        return s.length() - 1;
    }

    private static int matchingBack(String s, int close) {
        int depth = 0;
        for (int i = close; i >= 0; i--) {
            if (s.charAt(i) == ')') {
                depth++;
            } else if (s.charAt(i) == '(' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static int skipSpaceBack(String s, int i) {
        while (i > 0 && Character.isWhitespace(s.charAt(i - 1))) {
            i--;
        }
        return i;
    }
}
