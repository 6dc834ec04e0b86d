package dev.lockwarden.checks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** One POM file, read with the JDK's XML parser: the few elements the build checks compare. */
final class Pom {
    private final Element project;

    Pom(Path file) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document doc = f.newDocumentBuilder().parse(file.toFile());
            project = doc.getDocumentElement();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** The text of the child element at {@code path} (e.g. {@code "scm/url"}), or "" when absent. */
    String text(String path) {
        Element e = element(path);
        return e == null ? "" : e.getTextContent().strip();
    }

    boolean has(String path) {
        return element(path) != null;
    }

    /** The module paths listed in {@code <modules>}. */
    List<String> modules() {
        return texts("modules", "module");
    }

    /** The artifactIds of {@code <dependencyManagement><dependencies>}. */
    List<String> managedArtifactIds() {
        List<String> ids = new ArrayList<>();
        Element deps = element("dependencyManagement/dependencies");
        if (deps != null) {
            for (Element d : children(deps, "dependency")) {
                ids.add(child(d, "artifactId").getTextContent().strip());
            }
        }
        return ids;
    }

    /** The whole element at {@code path} as normalised text, to compare two POMs' blocks. */
    String block(String path) {
        Element e = element(path);
        return e == null ? "" : e.getTextContent().replaceAll("\\s+", " ").strip();
    }

    private List<String> texts(String parent, String child) {
        List<String> r = new ArrayList<>();
        Element p = element(parent);
        if (p != null) {
            children(p, child).forEach(c -> r.add(c.getTextContent().strip()));
        }
        return r;
    }

    private Element element(String path) {
        Element e = project;
        for (String name : path.split("/")) {
            e = child(e, name);
            if (e == null) {
                return null;
            }
        }
        return e;
    }

    private static Element child(Element parent, String name) {
        List<Element> c = children(parent, name);
        return c.isEmpty() ? null : c.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> r = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node n = nodes.item(i);
            if (n instanceof Element e && e.getTagName().equals(name)) {
                r.add(e);
            }
        }
        return r;
    }
}
