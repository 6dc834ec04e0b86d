package dev.lockwarden.agent;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * The shape of one class as the rules see it — names, flags, super types, declared methods with parameter types
 * and names — read from its class file with the bundled ASM {@link ClassReader} (code skipped; not debug info, which holds the MethodParameters names). This is what
 * {@link MethodPlanner} plans on; it needs a few ASM classes instead of Byte Buddy's type model, which took
 * hundreds of milliseconds to load and run cold at start-up.
 */
final class ClassModel {
    private final String name;
    private final String simpleName;
    private final int access;
    private final int version;
    private final String superName;
    private final List<String> interfaces;
    private final List<MethodModel> methods;

    private ClassModel(
            String name,
            String simpleName,
            int access,
            int version,
            String superName,
            List<String> interfaces,
            List<MethodModel> methods) {
        this.name = name;
        this.simpleName = simpleName;
        this.access = access;
        this.version = version;
        this.superName = superName;
        this.interfaces = interfaces;
        this.methods = methods;
    }

    /**
     * One declared method or constructor; types as Java names ({@code java.lang.String[]}, {@code int}). A plain
     * class with identity equality, not a record: a record's generated {@code hashCode} costs tens of milliseconds
     * of method-handle set-up the first time, on the start-up path.
     */
    static final class MethodModel {
        // the JVM's access flags, spelt out: javac kept an (unrelocatable) reference to ASM's Opcodes otherwise
        private static final int STATIC = 0x0008;
        private static final int BRIDGE = 0x0040;
        private static final int NATIVE = 0x0100;
        private static final int ABSTRACT = 0x0400;
        private static final int SYNTHETIC = 0x1000;
        private final String name;
        private final String descriptor;
        private final int access;
        private final List<String> parameterTypes;
        private final List<String> parameterNames;

        MethodModel(
                String name, String descriptor, int access, List<String> parameterTypes, List<String> parameterNames) {
            this.name = name;
            this.descriptor = descriptor;
            this.access = access;
            this.parameterTypes = parameterTypes;
            this.parameterNames = parameterNames;
        }

        String name() {
            return name;
        }

        String descriptor() {
            return descriptor;
        }

        List<String> parameterTypes() {
            return parameterTypes;
        }

        List<String> parameterNames() {
            return parameterNames;
        }

        /** Not a constructor or static initialiser. */
        boolean isMethod() {
            return !name.equals("<init>") && !name.equals("<clinit>");
        }

        boolean isStatic() {
            return (access & STATIC) != 0;
        }

        /** What a lock can be woven around: a concrete, non-native, compiler-visible method. */
        boolean lockable() {
            return isMethod() && (access & (ABSTRACT | NATIVE | SYNTHETIC | BRIDGE)) == 0;
        }

        /** {@code name(java.lang.String, long)}. */
        String signature() {
            return name + "(" + String.join(", ", parameterTypes) + ")";
        }

        @Override
        public String toString() {
            return signature();
        }
    }

    /** Reads a class file; throws {@link IllegalArgumentException} on a malformed one. */
    static ClassModel read(byte[] classFile) {
        Reader r = new Reader();
        new ClassReader(classFile).accept(r, ClassReader.SKIP_CODE | ClassReader.SKIP_FRAMES);
        return r.model();
    }

    /** Binary name, {@code com.acme.Outer$Inner}. */
    String name() {
        return name;
    }

    /** As {@link Class#getSimpleName()}: {@code Inner} for {@code com.acme.Outer$Inner}. */
    String simpleName() {
        return simpleName;
    }

    boolean isInterface() {
        return (access & Opcodes.ACC_INTERFACE) != 0;
    }

    boolean isSynthetic() {
        return (access & Opcodes.ACC_SYNTHETIC) != 0;
    }

    /** The class file's major version (51 = Java 7). */
    int version() {
        return version;
    }

    /** Binary name of the superclass, null for {@code java.lang.Object} and interfaces without one. */
    String superName() {
        return superName;
    }

    List<String> interfaces() {
        return interfaces;
    }

    List<MethodModel> methods() {
        return methods;
    }

    private static String binary(String internal) {
        return internal == null ? null : internal.replace('/', '.');
    }

    /** Collects the model; only the attributes the planner needs. */
    private static final class Reader extends ClassVisitor {
        private String internalName;
        private int access;
        private int version;
        private String superName;
        private List<String> interfaces = List.of();
        private String outer;
        private String innerSimpleName;
        private final List<Object[]> methods = new ArrayList<>();

        Reader() {
            super(Opcodes.ASM9);
        }

        @Override
        public void visit(
                int version, int access, String name, String signature, String superName, String[] interfaces) {
            this.version = version & 0xFFFF;
            this.access = access;
            this.internalName = name;
            this.superName = binary(superName);
            List<String> names = new ArrayList<>();
            for (String i : interfaces == null ? new String[0] : interfaces) {
                names.add(binary(i));
            }
            this.interfaces = List.copyOf(names);
        }

        @Override
        public void visitOuterClass(String owner, String name, String descriptor) {
            if (outer == null) {
                outer = owner; // local and anonymous classes: the enclosing class
            }
        }

        @Override
        public void visitInnerClass(String name, String outerName, String innerName, int access) {
            if (name.equals(internalName)) {
                if (outerName != null) {
                    outer = outerName;
                }
                innerSimpleName = innerName;
            }
        }

        @Override
        public MethodVisitor visitMethod(
                int access, String name, String descriptor, String signature, String[] exceptions) {
            Object[] m = {access, name, descriptor, new ArrayList<String>()};
            methods.add(m);
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                @SuppressWarnings("unchecked")
                public void visitParameter(String parameterName, int parameterAccess) {
                    ((List<String>) m[3]).add(parameterName);
                }
            };
        }

        @SuppressWarnings("unchecked")
        ClassModel model() {
            List<MethodModel> list = new ArrayList<>();
            for (Object[] m : methods) {
                String descriptor = (String) m[2];
                Type[] args = Type.getArgumentTypes(descriptor);
                List<String> declared = (List<String>) m[3];
                List<String> types = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (int i = 0; i < args.length; i++) {
                    types.add(args[i].getClassName());
                    // as Byte Buddy and reflection: the MethodParameters name (javac -parameters), else argN
                    String n = declared.size() == args.length ? declared.get(i) : null;
                    names.add(n != null ? n : "arg" + i);
                }
                list.add(new MethodModel(
                        (String) m[1], descriptor, (Integer) m[0], List.copyOf(types), List.copyOf(names)));
            }
            return new ClassModel(
                    binary(internalName), simpleName(), access, version, superName, interfaces, List.copyOf(list));
        }

        /** As Byte Buddy's getSimpleName: after the enclosing class's name and "$", else after the package. */
        private String simpleName() {
            if (innerSimpleName != null) {
                return innerSimpleName;
            }
            int start;
            if (outer != null && internalName.startsWith(outer + "$")) {
                start = outer.length() + 1;
            } else {
                start = internalName.lastIndexOf('/') + 1;
            }
            while (start < internalName.length() && !Character.isLetter(internalName.charAt(start))) {
                start++;
            }
            return internalName.substring(start);
        }
    }
}
