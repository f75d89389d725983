// mjml 5 ships no type declarations: the one call we make.
declare module 'mjml' {
  export default function mjml2html(
    input: string,
    options?: { validationLevel?: 'strict' | 'soft' | 'skip' },
  ): Promise<{ html: string; errors: { message: string }[] }>;
}
