package dev.lockwarden.agent;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The last resort for a class that has a lock-wrapped method but that Byte Buddy ({@link ClassWeaver}) cannot
 * weave (a constant pool too full for the wrapper's constants, a weaver bug): a transformer cannot stop a class
 * from loading, so instead of letting the method run without its lock the class is defined with its name, super
 * types, fields and method signatures but with a fresh constant pool and every method's code — and a static
 * initialiser — replaced by {@code throw new IllegalStateException(message)}. The first use of the class then fails
 * with the message (as the cause of the {@code ExceptionInInitializerError}; later uses get a
 * {@code NoClassDefFoundError} naming it). Annotations and other attributes are dropped; nothing of the original code
 * is kept. A class file newer than the bundled ASM reads (an application compiled for a newer JDK than this agent
 * knows) fails closed too: its structure is read as if it had a known version — the throwing code needs no stack map
 * frames, so it is valid in any version — and the failing class keeps the original version.
 */
final class FailClosedClass {
    private static final String ISE = "java/lang/IllegalStateException";

    private FailClosedClass() {}

    /** The class file of {@code original}'s shape whose every method throws {@code message}. */
    static byte[] of(byte[] original, String message) {
        ClassReader reader = reader(original);
        int originalVersion = version(original);
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS); // a new constant pool: nothing is copied
        reader.accept(
                new ClassVisitor(Opcodes.ASM9) {
                    private boolean hasInitialiser;

                    @Override
                    public void visit(
                            int version,
                            int access,
                            String name,
                            String signature,
                            String superName,
                            String[] interfaces) {
                        writer.visit(originalVersion, access, name, signature, superName, interfaces);
                    }

                    @Override
                    public void visitNestHost(String nestHost) {
                        writer.visitNestHost(nestHost);
                    }

                    @Override
                    public void visitOuterClass(String owner, String name, String descriptor) {
                        writer.visitOuterClass(owner, name, descriptor);
                    }

                    @Override
                    public void visitNestMember(String nestMember) {
                        writer.visitNestMember(nestMember);
                    }

                    @Override
                    public void visitInnerClass(String name, String outerName, String innerName, int access) {
                        writer.visitInnerClass(name, outerName, innerName, access);
                    }

                    @Override
                    public FieldVisitor visitField(
                            int access, String name, String descriptor, String signature, Object value) {
                        writer.visitField(access, name, descriptor, signature, null)
                                .visitEnd();
                        return null;
                    }

                    @Override
                    public MethodVisitor visitMethod(
                            int access, String name, String descriptor, String signature, String[] exceptions) {
                        MethodVisitor mv = writer.visitMethod(access, name, descriptor, signature, exceptions);
                        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0) {
                            hasInitialiser |= name.equals("<clinit>");
                            throwing(mv, message);
                        }
                        mv.visitEnd();
                        return null;
                    }

                    @Override
                    public void visitEnd() {
                        if (!hasInitialiser) {
                            MethodVisitor mv = writer.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
                            throwing(mv, message);
                            mv.visitEnd();
                        }
                        writer.visitEnd();
                    }
                },
                ClassReader.SKIP_CODE | ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }

    /**
     * For an already loaded class (retransformation must not change its shape): the class file kept as it is —
     * fields, methods, attributes — but every concrete method's code replaced by the throw.
     */
    static byte[] keepingShape(byte[] original, String message) {
        ClassReader reader = reader(original);
        int originalVersion = version(original);
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        reader.accept(
                new ClassVisitor(Opcodes.ASM9, writer) {
                    @Override
                    public void visit(
                            int version,
                            int access,
                            String name,
                            String signature,
                            String superName,
                            String[] interfaces) {
                        super.visit(originalVersion, access, name, signature, superName, interfaces);
                    }

                    @Override
                    public MethodVisitor visitMethod(
                            int access, String name, String descriptor, String signature, String[] exceptions) {
                        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0) {
                            throwing(mv, message);
                        }
                        mv.visitEnd();
                        return null;
                    }
                },
                ClassReader.SKIP_CODE | ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }

    /**
     * A reader of the class file; one whose version ASM refuses (newer than it knows) is read from a copy carrying a
     * known version — ASM checks nothing else about the version, and only the structure is read (code skipped).
     */
    private static ClassReader reader(byte[] classFile) {
        try {
            return new ClassReader(classFile);
        } catch (IllegalArgumentException unsupported) {
            if (classFile.length < 8 || (version(classFile) & 0xFFFF) <= Opcodes.V17) {
                throw unsupported;
            }
            byte[] known = classFile.clone();
            known[4] = 0;
            known[5] = 0;
            known[6] = 0;
            known[7] = (byte) Opcodes.V17;
            return new ClassReader(known);
        }
    }

    /** The class file's version as ASM writes it: minor in the high 16 bits, major in the low. */
    private static int version(byte[] classFile) {
        int minor = ((classFile[4] & 0xff) << 8) | (classFile[5] & 0xff);
        int major = ((classFile[6] & 0xff) << 8) | (classFile[7] & 0xff);
        return (minor << 16) | major;
    }

    /** {@code throw new IllegalStateException(message)}: no branch, so no stack map frame is needed. */
    private static void throwing(MethodVisitor mv, String message) {
        mv.visitCode();
        mv.visitTypeInsn(Opcodes.NEW, ISE);
        mv.visitInsn(Opcodes.DUP);
        mv.visitLdcInsn(message);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, ISE, "<init>", "(Ljava/lang/String;)V", false);
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitMaxs(0, 0);
    }
}
