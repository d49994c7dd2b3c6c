/**
 * The part of the WebAssembly API that the embedded database uses (TypeScript declares it only with the
 * DOM's libraries, which a server does not include)
 */
declare namespace WebAssembly {
  class Module {
    private constructor();
  }
  function compile(bytes: Uint8Array): Promise<Module>;
}
