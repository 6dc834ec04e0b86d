package dev.lockwarden.agent;

import dev.lockwarden.agent.Binder.Woven;
import dev.lockwarden.agent.ClassModel.MethodModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.Attribute;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import net.bytebuddy.jar.asm.TypePath;

/**
 * Weaves a class as it is first loaded, with the bundled ASM only (Byte Buddy's weaving machinery cost ~300 ms of
 * start-up for the first class). Each configured method {@code m} keeps its name, flags, annotations and parameters
 * but gets new code — the lock around a call of its original body, which moves unchanged into a new private
 * synthetic method {@code m$lockwarden$body}:
 *
 * <pre>
 * state = LockBridge.enter(id, new Object[] {args})     // a LinkageError (bridge unreachable) becomes the ISE with the fix
 * if (state instanceof Skip) { t = LockBridge.exitSafely(state, null); if (t != null) throw t; return default; }
 * try { result = m$lockwarden$body(args); } catch (Throwable e) { t = LockBridge.exitSafely(state, e); if (t != null) throw t; return default; }
 * t = LockBridge.exitSafely(state, null); if (t != null) throw t; return result;
 * </pre>
 *
 * the same semantics as {@link LockAdvice} (Byte Buddy inlines that, which needs no new method, for classes that
 * are retransformed). A method whose loader cannot see the bridge gets {@code throw new IllegalStateException(msg)}
 * instead (as {@link UnreachableAdvice}). Every other method's code is copied as it is; only the new wrapper code
 * carries stack map frames written here, so no frame of the application's code is recomputed and no class is
 * loaded. Adding a method is allowed only when a class is first defined, not on retransformation.
 */
final class AsmWeaver {
    static final String BODY_SUFFIX = "$lockwarden$body";
    private static final String BRIDGE = "dev/lockwarden/agent/bootstrap/LockBridge";
    private static final String SKIP = BRIDGE + "$Skip";
    private static final String UNREACHABLE = "lockwarden-agent: %s is lock-wrapped but its class loader cannot"
            + " see dev.lockwarden.agent.bootstrap.LockBridge, so it does not run unlocked — let the loader delegate"
            + " that package to the boot loader (JBoss: -Djboss.modules.system.pkgs=dev.lockwarden.agent.bootstrap;"
            + " OSGi: org.osgi.framework.bootdelegation=dev.lockwarden.agent.bootstrap)";

    private AsmWeaver() {}

    /** Whether this weaver can take the class: first definition, a class (not an interface), Java 7+ class file. */
    static boolean canWeave(ClassModel model, Class<?> redefined) {
        if (redefined != null || model.isInterface() || model.version() < Opcodes.V1_7) {
            return false;
        }
        for (MethodModel m : model.methods()) {
            if (m.name().endsWith(BODY_SUFFIX)) {
                return false; // woven already (by another copy of this agent): Byte Buddy's inline advice instead
            }
        }
        return true;
    }

    /** The woven class file. */
    static byte[] weave(byte[] bytes, List<Woven> woven) {
        Map<String, Woven> byMethod = new HashMap<>();
        for (Woven w : woven) {
            byMethod.put(w.planned().method().name() + w.planned().method().descriptor(), w);
        }
        ClassReader reader = new ClassReader(bytes);
        // the reader is passed on, so the constant pool and every untouched method are copied as they are
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(
                new ClassVisitor(Opcodes.ASM9, writer) {
                    private String owner;

                    @Override
                    public void visit(
                            int version,
                            int access,
                            String name,
                            String signature,
                            String superName,
                            String[] interfaces) {
                        owner = name;
                        super.visit(version, access, name, signature, superName, interfaces);
                    }

                    @Override
                    public MethodVisitor visitMethod(
                            int access, String name, String descriptor, String signature, String[] exceptions) {
                        Woven w = byMethod.get(name + descriptor);
                        if (w == null) {
                            return super.visitMethod(access, name, descriptor, signature, exceptions);
                        }
                        if ((access & Opcodes.ACC_STATIC) == 0 && name.equals("<init>")) {
                            throw new IllegalStateException("constructors are never woven");
                        }
                        String body = name + BODY_SUFFIX;
                        MethodVisitor wrapper = super.visitMethod(access, name, descriptor, signature, exceptions);
                        int bodyAccess = (access
                                        & ~(Opcodes.ACC_PUBLIC
                                                | Opcodes.ACC_PROTECTED
                                                | Opcodes.ACC_SYNCHRONIZED
                                                | Opcodes.ACC_VARARGS))
                                | Opcodes.ACC_PRIVATE
                                | Opcodes.ACC_SYNTHETIC;
                        MethodVisitor bodyWriter =
                                super.visitMethod(bodyAccess, body, descriptor, signature, exceptions);
                        // an anonymous class, not a lambda: the first weave runs during start-up (see RuleMatchers)
                        return new Splitter(wrapper, bodyWriter, new Runnable() {
                            @Override
                            public void run() {
                                writeWrapper(wrapper, owner, access, name, descriptor, body, w);
                            }
                        });
                    }
                },
                0);
        return writer.toByteArray();
    }

    /**
     * Sends what describes the method (parameters, annotations, attributes) to the wrapper, which keeps the
     * method's identity, and its code to the body; at the end writes the wrapper's code.
     */
    private static final class Splitter extends MethodVisitor {
        private final MethodVisitor wrapper;
        private final Runnable writeWrapper;

        Splitter(MethodVisitor wrapper, MethodVisitor body, Runnable writeWrapper) {
            super(Opcodes.ASM9, body);
            this.wrapper = wrapper;
            this.writeWrapper = writeWrapper;
        }

        @Override
        public void visitParameter(String name, int access) {
            wrapper.visitParameter(name, access);
            super.visitParameter(name, access);
        }

        @Override
        public AnnotationVisitor visitAnnotationDefault() {
            return wrapper.visitAnnotationDefault();
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            return wrapper.visitAnnotation(descriptor, visible);
        }

        @Override
        public AnnotationVisitor visitTypeAnnotation(
                int typeRef, TypePath typePath, String descriptor, boolean visible) {
            return wrapper.visitTypeAnnotation(typeRef, typePath, descriptor, visible);
        }

        @Override
        public void visitAnnotableParameterCount(int parameterCount, boolean visible) {
            wrapper.visitAnnotableParameterCount(parameterCount, visible);
        }

        @Override
        public AnnotationVisitor visitParameterAnnotation(int parameter, String descriptor, boolean visible) {
            return wrapper.visitParameterAnnotation(parameter, descriptor, visible);
        }

        @Override
        public void visitAttribute(Attribute attribute) {
            wrapper.visitAttribute(attribute);
        }

        @Override
        public void visitEnd() {
            super.visitEnd();
            writeWrapper.run();
        }
    }

    private static void writeWrapper(
            MethodVisitor mv, String owner, int access, String name, String descriptor, String body, Woven w) {
        boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
        Type[] args = Type.getArgumentTypes(descriptor);
        Type ret = Type.getReturnType(descriptor);
        mv.visitCode();
        if (w.failMessage() != null) {
            // the class loader cannot see the bridge: every call fails, the body never runs
            mv.visitTypeInsn(Opcodes.NEW, "java/lang/IllegalStateException");
            mv.visitInsn(Opcodes.DUP);
            mv.visitLdcInsn(w.failMessage());
            mv.visitMethodInsn(
                    Opcodes.INVOKESPECIAL, "java/lang/IllegalStateException", "<init>", "(Ljava/lang/String;)V", false);
            mv.visitInsn(Opcodes.ATHROW);
            mv.visitMaxs(3, argSlots(args, isStatic));
            mv.visitEnd();
            return;
        }
        int argSlots = argSlots(args, isStatic);
        int state = argSlots;
        int thrown = argSlots + 1;
        int result = argSlots + 2;
        int maxLocals = result + Math.max(1, ret.getSize());
        List<Object> locals = new ArrayList<>();
        if (!isStatic) {
            locals.add(owner);
        }
        for (Type a : args) {
            locals.add(frameType(a));
        }
        locals.add("java/lang/Object");
        locals.add("java/lang/Throwable");
        if (ret.getSort() != Type.VOID) {
            locals.add(frameType(ret));
        }
        Object[] frameLocals = locals.toArray();

        Label enterStart = new Label();
        Label enterEnd = new Label();
        Label linkage = new Label();
        Label bodyStart = new Label();
        Label bodyEnd = new Label();
        Label failed = new Label();
        Label run = new Label();
        Label done = new Label();
        mv.visitTryCatchBlock(enterStart, enterEnd, linkage, "java/lang/LinkageError");
        mv.visitTryCatchBlock(bodyStart, bodyEnd, failed, "java/lang/Throwable");
        // every local the frames name is set first, so all frames share one list
        mv.visitInsn(Opcodes.ACONST_NULL);
        mv.visitVarInsn(Opcodes.ASTORE, state);
        mv.visitInsn(Opcodes.ACONST_NULL);
        mv.visitVarInsn(Opcodes.ASTORE, thrown);
        if (ret.getSort() != Type.VOID) {
            pushDefault(mv, ret);
            mv.visitVarInsn(ret.getOpcode(Opcodes.ISTORE), result);
        }
        mv.visitLabel(enterStart);
        mv.visitLdcInsn(w.id());
        mv.visitLdcInsn(args.length);
        mv.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Object");
        int slot = isStatic ? 0 : 1;
        for (int i = 0; i < args.length; i++) {
            mv.visitInsn(Opcodes.DUP);
            mv.visitLdcInsn(i);
            mv.visitVarInsn(args[i].getOpcode(Opcodes.ILOAD), slot);
            box(mv, args[i]);
            mv.visitInsn(Opcodes.AASTORE);
            slot += args[i].getSize();
        }
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "enter", "(I[Ljava/lang/Object;)Ljava/lang/Object;", false);
        mv.visitLabel(enterEnd);
        mv.visitVarInsn(Opcodes.ASTORE, state);
        mv.visitVarInsn(Opcodes.ALOAD, state);
        mv.visitTypeInsn(Opcodes.INSTANCEOF, SKIP);
        mv.visitJumpInsn(Opcodes.IFEQ, run);
        // skipped (SKIP policy, or a failure to throw instead of running the body)
        exit(mv, state, thrown, false, frameLocals, done);

        mv.visitLabel(run);
        mv.visitFrame(Opcodes.F_NEW, frameLocals.length, frameLocals, 0, new Object[0]);
        mv.visitLabel(bodyStart);
        if (!isStatic) {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
        }
        slot = isStatic ? 0 : 1;
        for (Type a : args) {
            mv.visitVarInsn(a.getOpcode(Opcodes.ILOAD), slot);
            slot += a.getSize();
        }
        mv.visitMethodInsn(isStatic ? Opcodes.INVOKESTATIC : Opcodes.INVOKESPECIAL, owner, body, descriptor, false);
        mv.visitLabel(bodyEnd);
        if (ret.getSort() != Type.VOID) {
            mv.visitVarInsn(ret.getOpcode(Opcodes.ISTORE), result);
        }
        exit(mv, state, thrown, false, frameLocals, done);

        mv.visitLabel(failed);
        mv.visitFrame(Opcodes.F_NEW, frameLocals.length, frameLocals, 1, new Object[] {"java/lang/Throwable"});
        mv.visitVarInsn(Opcodes.ASTORE, thrown);
        exit(mv, state, thrown, true, frameLocals, done);

        mv.visitLabel(done);
        mv.visitFrame(Opcodes.F_NEW, frameLocals.length, frameLocals, 0, new Object[0]);
        if (ret.getSort() != Type.VOID) {
            mv.visitVarInsn(ret.getOpcode(Opcodes.ILOAD), result);
        }
        mv.visitInsn(ret.getOpcode(Opcodes.IRETURN));

        mv.visitLabel(linkage);
        mv.visitFrame(Opcodes.F_NEW, frameLocals.length, frameLocals, 1, new Object[] {"java/lang/LinkageError"});
        mv.visitVarInsn(Opcodes.ASTORE, thrown);
        mv.visitTypeInsn(Opcodes.NEW, "java/lang/IllegalStateException");
        mv.visitInsn(Opcodes.DUP);
        mv.visitLdcInsn(String.format(UNREACHABLE, Type.getObjectType(owner).getClassName() + "#" + name));
        mv.visitVarInsn(Opcodes.ALOAD, thrown);
        mv.visitMethodInsn(
                Opcodes.INVOKESPECIAL,
                "java/lang/IllegalStateException",
                "<init>",
                "(Ljava/lang/String;Ljava/lang/Throwable;)V",
                false);
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitMaxs(Math.max(6, argSlots + 2), maxLocals);
        mv.visitEnd();
    }

    /** {@code t = LockBridge.exitSafely(state, thrown or null); if (t != null) throw t;} then on to {@code done}. */
    private static void exit(
            MethodVisitor mv, int state, int thrown, boolean withThrown, Object[] frameLocals, Label done) {
        mv.visitVarInsn(Opcodes.ALOAD, state);
        if (withThrown) {
            mv.visitVarInsn(Opcodes.ALOAD, thrown);
        } else {
            mv.visitInsn(Opcodes.ACONST_NULL);
        }
        mv.visitMethodInsn(
                Opcodes.INVOKESTATIC,
                BRIDGE,
                "exitSafely",
                "(Ljava/lang/Object;Ljava/lang/Throwable;)Ljava/lang/Throwable;",
                false);
        mv.visitVarInsn(Opcodes.ASTORE, thrown);
        mv.visitVarInsn(Opcodes.ALOAD, thrown);
        mv.visitJumpInsn(Opcodes.IFNULL, done);
        mv.visitVarInsn(Opcodes.ALOAD, thrown);
        mv.visitInsn(Opcodes.ATHROW);
    }

    private static int argSlots(Type[] args, boolean isStatic) {
        int n = isStatic ? 0 : 1;
        for (Type a : args) {
            n += a.getSize();
        }
        return n;
    }

    private static Object frameType(Type t) {
        return switch (t.getSort()) {
            case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> Opcodes.INTEGER;
            case Type.LONG -> Opcodes.LONG;
            case Type.FLOAT -> Opcodes.FLOAT;
            case Type.DOUBLE -> Opcodes.DOUBLE;
            case Type.ARRAY -> t.getDescriptor();
            default -> t.getInternalName();
        };
    }

    private static void pushDefault(MethodVisitor mv, Type t) {
        switch (t.getSort()) {
            case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> mv.visitInsn(Opcodes.ICONST_0);
            case Type.LONG -> mv.visitInsn(Opcodes.LCONST_0);
            case Type.FLOAT -> mv.visitInsn(Opcodes.FCONST_0);
            case Type.DOUBLE -> mv.visitInsn(Opcodes.DCONST_0);
            default -> mv.visitInsn(Opcodes.ACONST_NULL);
        }
    }

    private static void box(MethodVisitor mv, Type t) {
        String wrapper = switch (t.getSort()) {
            case Type.BOOLEAN -> "java/lang/Boolean";
            case Type.BYTE -> "java/lang/Byte";
            case Type.CHAR -> "java/lang/Character";
            case Type.SHORT -> "java/lang/Short";
            case Type.INT -> "java/lang/Integer";
            case Type.LONG -> "java/lang/Long";
            case Type.FLOAT -> "java/lang/Float";
            case Type.DOUBLE -> "java/lang/Double";
            default -> null;
        };
        if (wrapper != null) {
            mv.visitMethodInsn(
                    Opcodes.INVOKESTATIC, wrapper, "valueOf", "(" + t.getDescriptor() + ")L" + wrapper + ";", false);
        }
    }
}
