# tilework shell integration for bash (4.4 or later): marks each prompt,
# command line, output and exit status with OSC 133, so tilework knows
# where commands begin and end. In ~/.bashrc, after PS1 is set:
#   eval "$(tilework shell-integration bash)"
if [[ $- == *i* && -z ${__tilework_si-} ]]; then
    __tilework_si=1
    # The prompt's command number (\#) grows only when a command ran, so
    # an empty line or Ctrl-C at the prompt ends no command.
    __tilework_number='\#'
    __tilework_last=
    __tilework_precmd() {
        local status=$? number=${__tilework_number@P}
        if [[ -n $__tilework_last && $number != "$__tilework_last" ]]; then
            printf '\e]133;D;%s\a' "$status"
        fi
        __tilework_last=$number
        # A prompt set anew (by a theme, each time) is marked again.
        if [[ $PS1 != *'133;A'* ]]; then
            PS1='\[\e]133;A\a\]'"$PS1"'\[\e]133;B\a\]'
        fi
        return $status
    }
    # PS0 is printed when a command line is accepted: its output starts.
    PS0+='\e]133;C\a'
    PROMPT_COMMAND="__tilework_precmd${PROMPT_COMMAND:+;$PROMPT_COMMAND}"
fi
