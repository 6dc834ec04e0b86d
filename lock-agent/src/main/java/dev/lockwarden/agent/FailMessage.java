package dev.lockwarden.agent;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks the advice parameter that receives the failure message, a constant bound per instrumented method. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface FailMessage {}
