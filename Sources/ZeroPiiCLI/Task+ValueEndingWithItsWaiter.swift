extension Task where Failure == Never {
    /// The task's value; when the waiting task is cancelled (a run stopped by a signal),
    /// this task is cancelled too, so the wait ends at once rather than when the work
    /// would have (a batch's request, at its time limit).
    var valueEndingWithItsWaiter: Success {
        get async {
            await withTaskCancellationHandler {
                await value
            } onCancel: {
                cancel()
            }
        }
    }
}
