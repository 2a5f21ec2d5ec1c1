export interface DevCheckOptions {
    /** Look again this often even when nothing was declared, for problems in the data (a `list()` that
     * starts throwing, an id seen twice). Default 2000 ms; 0 looks only after declarations change. */
    intervalMs?: number;
    /** Where to print; default the browser console. */
    console?: Pick<Console, 'warn' | 'info'>;
}
/** Starts checking; answers a function that stops it. Call it where your build knows it is in
 * development (`if (import.meta.env.DEV) startDevCheck()`): each check reads the whole model. */
export declare function startDevCheck(options?: DevCheckOptions): () => void;
