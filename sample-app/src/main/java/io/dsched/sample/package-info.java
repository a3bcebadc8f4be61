/** A runnable order-processing service whose scheduled work runs once per fire across all its instances. */
package io.dsched.sample;
