// The part of swagger-ui-dist 5's self-contained bundle the reference page uses (the package ships
// no types). Options: https://swagger.io/docs/open-source-tools/swagger-ui/usage/configuration/
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  /** What a plugin gets: the parts used here. */
  export type TSwaggerSystem = { React: { createElement: (type: string, props: null, ...children: unknown[]) => unknown } };
  type SwaggerUIOptions = {
    plugins?: ((system: TSwaggerSystem) => object)[];
    domNode: HTMLElement;
    spec: object;
    layout?: string;
    deepLinking?: boolean;
    docExpansion?: "list" | "full" | "none";
    defaultModelRendering?: "example" | "model";
    defaultModelExpandDepth?: number;
    defaultModelsExpandDepth?: number;
    supportedSubmitMethods?: string[];
    tryItOutEnabled?: boolean;
    queryConfigEnabled?: boolean;
    validatorUrl?: string | null;
    displayRequestDuration?: boolean;
  };
  const SwaggerUIBundle: (options: SwaggerUIOptions) => unknown;
  export default SwaggerUIBundle;
}
